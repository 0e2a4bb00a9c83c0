// A ring of the last N chars of a stream. Pushed pieces are kept as they are and dropped from the front
// once the rest still covers the capacity, so a piece is copied at most once more (when the text is read);
// many small pieces are joined now and then to bound their count.

/** Past this many pieces they are joined into one (bounded bookkeeping for streams of tiny writes). */
const MAX_PIECES = 1024;

export class TailBuffer {
  private parts: string[] = [];
  /** Index of the first live piece in `parts`. */
  private first = 0;
  private length = 0;

  constructor(private readonly capacity: number) {}

  push(text: string): void {
    if (this.capacity <= 0 || text.length === 0) return;
    if (text.length >= this.capacity) {
      this.parts = [text.slice(text.length - this.capacity)];
      this.first = 0;
      this.length = this.capacity;
      return;
    }
    this.parts.push(text);
    this.length += text.length;
    while (this.length - this.parts[this.first]!.length >= this.capacity) {
      this.length -= this.parts[this.first]!.length;
      // Dropped pieces are let go at once (a slot left holding one would keep it alive).
      this.parts[this.first++] = '';
    }
    if (this.parts.length - this.first > MAX_PIECES) this.compact();
    else if (this.first > MAX_PIECES) {
      this.parts = this.parts.slice(this.first);
      this.first = 0;
    }
  }

  /** The last `capacity` chars (never starting with the low half of a surrogate pair). */
  text(): string {
    this.compact();
    const text = this.parts[0] ?? '';
    const first = text.charCodeAt(0);
    return first >= 0xdc00 && first <= 0xdfff ? text.slice(1) : text;
  }

  private compact(): void {
    const joined = this.parts.length - this.first === 1 ? this.parts[this.first]! : this.parts.slice(this.first).join('');
    const kept = joined.length > this.capacity ? joined.slice(joined.length - this.capacity) : joined;
    this.parts = [kept];
    this.first = 0;
    this.length = kept.length;
  }
}
