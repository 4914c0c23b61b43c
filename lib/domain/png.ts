// A PNG's width and height from its IHDR chunk, without decoding: the one reader of a PNG header, for the import's
// thread and its reader thread (lib/server/import) and the trainer bridge's export reader and loaders (lib/bridge).

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const IHDR = [0x49, 0x48, 0x44, 0x52];

/** Width and height (pixels) from a PNG's first 24 bytes; null when they are not a PNG's or declare an empty size. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 24 || SIGNATURE.some((b, i) => bytes[i] !== b) || IHDR.some((b, i) => bytes[12 + i] !== b)) return null;
  const header = new DataView(bytes.buffer, bytes.byteOffset, 24);
  const width = header.getUint32(16);
  const height = header.getUint32(20);
  return width > 0 && height > 0 ? { width, height } : null;
}
