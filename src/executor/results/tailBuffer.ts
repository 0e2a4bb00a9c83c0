// A ring of the last N chars of a stream, compacted in amortised constant time per char.

export class TailBuffer {
  private parts: string[] = [];
  private length = 0;

  constructor(private readonly capacity: number) {}

  push(text: string): void {
    if (this.capacity <= 0) return;
    if (text.length >= this.capacity) {
      this.parts = [text.slice(text.length - this.capacity)];
      this.length = this.capacity;
      return;
    }
    this.parts.push(text);
    this.length += text.length;
    if (this.length > this.capacity * 2) this.compact();
  }

  /** The last `capacity` chars (never starting with the low half of a surrogate pair). */
  text(): string {
    this.compact();
    const text = this.parts[0] ?? '';
    const first = text.charCodeAt(0);
    return first >= 0xdc00 && first <= 0xdfff ? text.slice(1) : text;
  }

  private compact(): void {
    const joined = this.parts.join('');
    const kept = joined.length > this.capacity ? joined.slice(joined.length - this.capacity) : joined;
    this.parts = [kept];
    this.length = kept.length;
  }
}
