// CRC-32 (IEEE, as in zip, gzip and zlib): verifies inflated zip entries; node:zlib's crc32.

const TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** Continues a running CRC (start with 0) over more bytes. */
export function crc32(bytes: Uint8Array, previous = 0): number {
  let crc = ~previous;
  for (let i = 0; i < bytes.length; i++) crc = TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}
