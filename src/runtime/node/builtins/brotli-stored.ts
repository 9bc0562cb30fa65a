// Brotli without a Brotli compressor (RFC 7932): compression writes a valid stream of uncompressed
// ("stored") meta-blocks, which every Brotli decoder reads (browsers, Node) but which is not
// smaller than its input; decompression reads such streams (ours, or any made of stored blocks)
// and refuses compressed meta-blocks in one line. A real Brotli codec (its 120 KB dictionary
// included) is not bundled; this keeps `compression`-style middleware working when a client
// accepts br, and says so where it cannot.

const BLOCK = 1 << 16; // MLEN - 1 fits four nibbles

class BitWriter {
  private bytes: number[] = [];
  private current = 0;
  private used = 0;
  bits(value: number, count: number): void {
    for (let i = 0; i < count; i++) {
      this.current |= ((value >>> i) & 1) << this.used;
      if (++this.used === 8) this.flushByte();
    }
  }
  align(): void {
    if (this.used > 0) this.flushByte();
  }
  private flushByte(): void {
    this.bytes.push(this.current);
    this.current = 0;
    this.used = 0;
  }
  take(): Uint8Array {
    const out = Uint8Array.from(this.bytes);
    this.bytes = [];
    return out;
  }
}

/** A stored Brotli stream written as it goes: push() data, end() the stream. */
export class StoredBrotliWriter {
  private started = false;
  push(data: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (let at = 0; at < data.length; at += BLOCK) {
      const chunk = data.subarray(at, at + BLOCK);
      const writer = new BitWriter();
      if (!this.started) writer.bits(0, 1); // WBITS = 16
      this.started = true;
      writer.bits(0, 1); // ISLAST
      writer.bits(0, 2); // MNIBBLES = 4
      writer.bits(chunk.length - 1, 16); // MLEN - 1
      writer.bits(1, 1); // ISUNCOMPRESSED
      writer.align();
      out.push(writer.take(), chunk);
    }
    return out;
  }
  end(): Uint8Array {
    const writer = new BitWriter();
    if (!this.started) writer.bits(0, 1);
    this.started = true;
    writer.bits(1, 1); // ISLAST
    writer.bits(1, 1); // ISLASTEMPTY
    writer.align();
    return writer.take();
  }
}

export class BrotliError extends Error {
  constructor(message: string, readonly code: string, readonly errno: number) {
    super(message);
  }
}

/** Decodes a Brotli stream made of stored (and metadata) meta-blocks. */
export function decodeStoredBrotli(input: Uint8Array): Uint8Array {
  let bit = 0;
  const read = (count: number): number => {
    let value = 0;
    for (let i = 0; i < count; i++, bit++) {
      const byte = input[bit >>> 3];
      if (byte === undefined) throw new BrotliError("unexpected end of file", "Z_BUF_ERROR", -5);
      value |= ((byte >>> (bit & 7)) & 1) << i;
    }
    return value >>> 0;
  };
  const align = () => (bit = (bit + 7) & ~7);
  if (read(1) === 1 && read(3) === 0) read(3);
  const parts: Uint8Array[] = [];
  for (;;) {
    const last = read(1);
    if (last && read(1)) break;
    const nibbles = read(2);
    if (nibbles === 3) {
      // A metadata block: skipped.
      read(1);
      const skipBytes = read(2);
      const skip = skipBytes ? read(skipBytes * 8) + 1 : 0;
      align();
      bit += skip * 8;
      if (last) break;
      continue;
    }
    const length = read((nibbles + 4) * 4) + 1;
    const uncompressed = last ? 0 : read(1);
    if (!uncompressed) {
      throw new BrotliError("Brotli data with compressed blocks cannot be decoded in the browser runtime (it reads only stored Brotli streams): it needs Node.js, which the WebContainer runtime runs.", "ERR_WEBCODE_NEEDS_WEBCONTAINER", -31);
    }
    align();
    const start = bit >>> 3;
    if (start + length > input.length) throw new BrotliError("unexpected end of file", "Z_BUF_ERROR", -5);
    parts.push(input.subarray(start, start + length));
    bit += length * 8;
  }
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
