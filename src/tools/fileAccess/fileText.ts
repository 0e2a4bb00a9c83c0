// Text files as the editing tools see them: encoding and BOM detected on read and kept on write,
// line endings reported, binary content recognised.

/** How the bytes of a text file are laid out; kept when the file is written back. */
export type TextEncoding = 'utf8' | 'utf16le' | 'utf16be' | 'latin1';

export interface DecodedText {
  readonly text: string;
  readonly encoding: TextEncoding;
  /** The file started with a byte order mark (kept on write, never shown in `text`). */
  readonly bom: boolean;
  /** The file's line ending: CRLF when most line breaks are `\r\n`. */
  readonly eol: '\n' | '\r\n';
}

/** Bytes inspected to tell text from binary (git uses the first 8000 bytes the same way). */
export const BINARY_SNIFF_BYTES = 8000;

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** Decodes a text file: BOM first, then strict UTF-8, else Latin-1 so every byte survives a round trip. */
export function decodeText(bytes: Uint8Array): DecodedText {
  let encoding: TextEncoding;
  let bom = false;
  let body: Uint8Array = bytes;
  if (startsWith(bytes, UTF8_BOM)) {
    encoding = 'utf8';
    bom = true;
    body = bytes.subarray(3);
  } else if (startsWith(bytes, [0xff, 0xfe])) {
    encoding = 'utf16le';
    bom = true;
    body = bytes.subarray(2);
  } else if (startsWith(bytes, [0xfe, 0xff])) {
    encoding = 'utf16be';
    bom = true;
    body = bytes.subarray(2);
  } else {
    encoding = isValidUtf8(bytes) ? 'utf8' : 'latin1';
  }
  const text = decodeBody(body, encoding);
  return { text, encoding, bom, eol: detectEol(text) };
}

/** Encodes `text` the way the original file was laid out (same encoding, BOM kept). */
export function encodeText(text: string, layout: Pick<DecodedText, 'encoding' | 'bom'>): Buffer {
  let body: Buffer;
  switch (layout.encoding) {
    case 'utf8':
      body = Buffer.from(text, 'utf8');
      return layout.bom ? Buffer.concat([Buffer.from(UTF8_BOM), body]) : body;
    case 'utf16le':
      body = Buffer.from(text, 'utf16le');
      return layout.bom ? Buffer.concat([Buffer.from([0xff, 0xfe]), body]) : body;
    case 'utf16be':
      body = Buffer.from(text, 'utf16le').swap16();
      return layout.bom ? Buffer.concat([Buffer.from([0xfe, 0xff]), body]) : body;
    case 'latin1':
      return Buffer.from(text, 'latin1');
  }
}

/** A file is binary when its head has a NUL byte (and no UTF-16 BOM) or is mostly control bytes. */
export function looksBinary(head: Uint8Array): boolean {
  if (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff])) return false;
  const sample = head.subarray(0, BINARY_SNIFF_BYTES);
  // A native search for NUL, then an indexed loop: iterating the bytes was a large part of a small Read.
  if (sample.indexOf(0) !== -1) return true;
  let control = 0;
  for (let index = 0; index < sample.length; index++) {
    const byte = sample[index]!;
    if (byte < 7 || (byte > 13 && byte < 32 && byte !== 27)) control++;
  }
  return sample.length > 0 && control / sample.length > 0.1;
}

/** Whether a file's first bytes are UTF-8 (a character cut at the end of the sample is fine). */
export function headIsUtf8(head: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** CRLF when at least half the line breaks are `\r\n`. */
export function detectEol(text: string): '\n' | '\r\n' {
  let lf = 0;
  let crlf = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    if (index > 0 && text.charCodeAt(index - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > 0 && crlf >= lf ? '\r\n' : '\n';
}

function decodeBody(body: Uint8Array, encoding: TextEncoding): string {
  switch (encoding) {
    case 'utf8':
      return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
    case 'utf16le':
      return new TextDecoder('utf-16le').decode(body);
    case 'utf16be':
      return new TextDecoder('utf-16be').decode(body);
    case 'latin1':
      return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
  }
}

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte);
}
