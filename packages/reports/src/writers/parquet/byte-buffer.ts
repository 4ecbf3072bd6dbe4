/** A growable byte array with the little-endian and varint writes Parquet's pages and footer need. */
export class ByteBuffer {
  #bytes: Uint8Array;
  #view: DataView;
  #buffer: Buffer;
  length = 0;

  constructor(capacity = 1 << 16) {
    this.#bytes = new Uint8Array(capacity);
    this.#view = new DataView(this.#bytes.buffer);
    this.#buffer = Buffer.from(this.#bytes.buffer);
  }

  /** The bytes written so far (a view: valid until the next write or `clear`). */
  view(): Uint8Array {
    return this.#bytes.subarray(0, this.length);
  }

  clear(): void {
    this.length = 0;
  }

  /** Makes room for `extra` more bytes. */
  reserve(extra: number): void {
    const needed = this.length + extra;
    if (needed <= this.#bytes.length) return;
    let capacity = this.#bytes.length * 2;
    while (capacity < needed) capacity *= 2;
    const grown = new Uint8Array(capacity);
    grown.set(this.view());
    this.#bytes = grown;
    this.#view = new DataView(grown.buffer);
    this.#buffer = Buffer.from(grown.buffer);
  }

  u8(value: number): void {
    this.reserve(1);
    this.#bytes[this.length++] = value;
  }

  u32(value: number): void {
    this.reserve(4);
    this.#view.setUint32(this.length, value, true);
    this.length += 4;
  }

  i64(value: number): void {
    this.reserve(8);
    this.#view.setBigInt64(this.length, BigInt(value), true);
    this.length += 8;
  }

  /** An unsigned LEB128 varint of a safe non-negative integer. */
  varint(value: number): void {
    this.reserve(10);
    let rest = value;
    while (rest >= 0x80) {
      this.#bytes[this.length++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.#bytes[this.length++] = rest;
  }

  bytes(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.#bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** `text` as UTF-8 preceded by its byte length in 4 bytes: PLAIN encoding of a BYTE_ARRAY. */
  lengthPrefixedUtf8(text: string): void {
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    this.reserve(4 + text.length * 3);
    const written = this.#buffer.write(text, this.length + 4, "utf8");
    this.#view.setUint32(this.length, written, true);
    this.length += 4 + written;
  }
}
