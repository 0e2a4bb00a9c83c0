// Terminal escape sequences in command output (colours, cursor moves, OSC titles and hyperlinks) are
// instructions to a terminal, not text: the model cannot use them, and replayed in a user's terminal they
// can rewrite what it shows. They are removed from the byte stream as it arrives, across chunk
// boundaries. UTF-8 never uses the ESC byte inside a character, so working on bytes splits none.

/** A control sequence longer than this is not one: the bytes after it are kept as output. */
export const MAX_ESCAPE_SEQUENCE_BYTES = 4096;

const ESC = 0x1b;
const BEL = 0x07;

type State = 'text' | 'escape' | 'csi' | 'string' | 'stringEscape';

/** Removes ANSI/VT escape sequences from a byte stream; keep one per stream. */
export class EscapeStripper {
  private state: State = 'text';
  private sequenceBytes = 0;

  /** The chunk without escape sequences (a sequence cut by the chunk's end is finished in the next). */
  strip(chunk: Buffer): Buffer {
    if (this.state === 'text' && !chunk.includes(ESC)) return chunk;
    const out = Buffer.allocUnsafe(chunk.length);
    let length = 0;
    for (const byte of chunk) {
      if (this.state === 'text') {
        if (byte === ESC) this.begin('escape');
        else out[length++] = byte;
        continue;
      }
      if (++this.sequenceBytes > MAX_ESCAPE_SEQUENCE_BYTES) {
        this.state = 'text';
        out[length++] = byte;
        continue;
      }
      this.state = next(this.state, byte);
    }
    return out.subarray(0, length);
  }

  private begin(state: State): void {
    this.state = state;
    this.sequenceBytes = 0;
  }
}

function next(state: State, byte: number): State {
  switch (state) {
    case 'escape':
      if (byte === 0x5b) return 'csi'; // ESC [
      if (byte === 0x5d || byte === 0x50 || byte === 0x58 || byte === 0x5e || byte === 0x5f) return 'string'; // OSC, DCS, SOS, PM, APC
      if (byte >= 0x20 && byte <= 0x2f) return 'escape'; // intermediate bytes (`ESC ( B`)
      return 'text'; // the final byte of a two-byte sequence
    case 'csi':
      return byte >= 0x40 && byte <= 0x7e ? 'text' : 'csi';
    case 'string':
      if (byte === BEL) return 'text';
      return byte === ESC ? 'stringEscape' : 'string';
    case 'stringEscape':
      return byte === 0x5c ? 'text' : 'string'; // ESC \ ends it
    default:
      return 'text';
  }
}
