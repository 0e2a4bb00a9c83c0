// What a non-text file is, from its extension and magic bytes: images for Read's media part, a name for binaries.
import * as path from 'node:path';

const IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/** The MIME type of an image Read returns as media, by extension; undefined for other files. */
export function imageMimeType(file: string): string | undefined {
  return IMAGE_TYPES[path.extname(file).toLowerCase()];
}

const MAGIC: ReadonlyArray<readonly [string, readonly number[]]> = [
  ['PDF document', [0x25, 0x50, 0x44, 0x46]],
  ['ZIP archive', [0x50, 0x4b, 0x03, 0x04]],
  ['gzip archive', [0x1f, 0x8b]],
  ['ELF executable', [0x7f, 0x45, 0x4c, 0x46]],
  ['WebAssembly module', [0x00, 0x61, 0x73, 0x6d]],
  ['SQLite database', [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65]],
  ['PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['JPEG image', [0xff, 0xd8, 0xff]],
  ['GIF image', [0x47, 0x49, 0x46, 0x38]],
];

/** A short name for binary content: its magic-byte type, else its extension. */
export function describeBinary(head: Uint8Array, file: string): string {
  for (const [name, magic] of MAGIC) {
    if (head.length >= magic.length && magic.every((byte, index) => head[index] === byte)) return name;
  }
  const ext = path.extname(file);
  return ext ? `${ext.slice(1)} data` : 'binary data';
}
