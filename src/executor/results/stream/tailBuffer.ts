// A ring of the last N chars of a stream. The chars (UTF-16 code units) are copied into one buffer
// (grown up to 2N bytes), so the pieces pushed are not kept: a stream's text then dies young in the JS heap instead of
// surviving collections while it is the tail, which kept the heap's young space growing.
import { withoutLeadingLowSurrogate } from '../../format/text';

/** The smallest ring, in code units (it starts small and grows to the capacity). */
const RING_MIN_UNITS = 4096;

export class TailBuffer {
  private ring: Buffer | undefined;
  /** Where the next code unit goes, in code units. */
  private end = 0;
  /** Code units held (at most the capacity). */
  private length = 0;

  constructor(private readonly capacity: number) {}

  push(text: string): void {
    if (this.capacity <= 0 || text.length === 0) return;
    this.reserve(Math.min(this.capacity, this.length + text.length));
    const ring = this.ring!;
    if (text.length >= this.capacity) {
      ring.write(text.slice(text.length - this.capacity), 0, this.capacity * 2, 'utf16le');
      this.end = 0;
      this.length = this.capacity;
      return;
    }
    const first = Math.min(text.length, this.capacity - this.end);
    ring.write(text, this.end * 2, first * 2, 'utf16le');
    if (first < text.length) ring.write(text.slice(first), 0, (text.length - first) * 2, 'utf16le');
    this.end = (this.end + text.length) % this.capacity;
    this.length = Math.min(this.capacity, this.length + text.length);
  }

  /** Forgets what was pushed (the ring is kept for what comes next). */
  clear(): void {
    this.end = 0;
    this.length = 0;
  }

  /**
   * Room for `units` code units. The ring grows (doubling, up to the capacity) while it has not wrapped:
   * until then its text runs from 0 to `end`, and a small output costs no full-size ring.
   */
  private reserve(units: number): void {
    const size = this.ring ? this.ring.length / 2 : 0;
    if (size >= units) return;
    const grown = Buffer.allocUnsafe(Math.min(this.capacity, Math.max(units, size * 2, RING_MIN_UNITS)) * 2);
    this.ring?.copy(grown, 0, 0, this.length * 2);
    this.ring = grown;
  }

  /** The last `capacity` chars (never starting with the low half of a surrogate pair). */
  text(): string {
    if (!this.ring || this.length === 0) return '';
    const start = (this.end - this.length + this.capacity) % this.capacity;
    const text =
      start + this.length <= this.capacity
        ? this.ring.toString('utf16le', start * 2, (start + this.length) * 2)
        : this.ring.toString('utf16le', start * 2, this.capacity * 2) + this.ring.toString('utf16le', 0, this.end * 2);
    return withoutLeadingLowSurrogate(text);
  }
}
