// An in-memory telemetry sink: spans stay in the process (tests, the local trace view).
import type { Span, SpanAttributeValue, Telemetry } from './ports/telemetry';

export interface RecordedSpan {
  readonly name: string;
  readonly attributes: Record<string, SpanAttributeValue>;
  ended: boolean;
}

/** Keeps the last `capacity` spans. */
export class InMemoryTelemetry implements Telemetry {
  readonly spans: RecordedSpan[] = [];

  /** @default 1000 */
  constructor(private readonly capacity = 1000) {}

  startSpan(name: string, attributes: Readonly<Record<string, SpanAttributeValue>> = {}): Span {
    const record: RecordedSpan = { name, attributes: { ...attributes }, ended: false };
    this.spans.push(record);
    if (this.spans.length > this.capacity) this.spans.shift();
    return {
      setAttribute: (key, value) => {
        record.attributes[key] = value;
      },
      end: () => {
        record.ended = true;
      },
    };
  }
}

/** A sink that records nothing. */
export const noTelemetry: Telemetry = {
  startSpan: () => ({ setAttribute() {}, end() {} }),
};
