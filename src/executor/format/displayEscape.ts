// Makes text safe to show in an approval preview: control characters, ANSI escapes and bidi
// overrides are shown escaped, so what the user reads is what runs (spec §3.3).

/** C0/C1 controls except tab and newline, DEL, bidi controls, zero-width characters and the BOM. */
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

export function escapeForDisplay(text: string): string {
  return text.replace(INVISIBLE, (char) => {
    const code = char.charCodeAt(0);
    if (code === 0x1b) return '\\e';
    if (code === 0x0d) return '\\r';
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** True when `text` holds anything `escapeForDisplay` would change. */
export function hasInvisibleCharacters(text: string): boolean {
  INVISIBLE.lastIndex = 0;
  const found = INVISIBLE.test(text);
  INVISIBLE.lastIndex = 0;
  return found;
}
