// Port: one telemetry span per call (spec §10). Nothing leaves the machine unless the host's sink sends it.

export type SpanAttributeValue = string | number | boolean;

export interface Span {
  setAttribute(key: string, value: SpanAttributeValue): void;
  end(): void;
}

export interface Telemetry {
  startSpan(name: string, attributes?: Readonly<Record<string, SpanAttributeValue>>): Span;
}
