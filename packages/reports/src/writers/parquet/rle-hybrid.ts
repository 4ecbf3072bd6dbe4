import type { ByteBuffer } from "./byte-buffer.ts";

/** A run at least this long is written as a repeated value rather than bit-packed. */
const MIN_RUN = 8;

/** The bits needed for values up to `max` (at least 1: some readers refuse a width of 0). */
export function bitWidthOf(max: number): number {
  let width = 1;
  while (width < 32 && max >= 2 ** width) width++;
  return width;
}

/** Whether `values[at…at+8)` are one value. */
function runStarts(values: ArrayLike<number>, at: number, end: number): boolean {
  if (at + MIN_RUN > end) return false;
  const first = values[at];
  for (let i = at + 1; i < at + MIN_RUN; i++) if (values[i] !== first) return false;
  return true;
}

/**
 * Parquet's RLE / bit-packing hybrid (the encoding of dictionary indices and of definition
 * levels) of `values[0…count)`, each below 2^`width` (`width` ≤ 24): runs of 8 or more equal
 * values are written once with their length; the rest are bit-packed in groups of 8, the last
 * group padded with zeros (only the end of the data may be padded).
 */
export function writeRleHybrid(
  out: ByteBuffer,
  values: ArrayLike<number>,
  count: number,
  width: number,
): void {
  const valueBytes = Math.ceil(width / 8);
  let i = 0;
  while (i < count) {
    const value = values[i] as number;
    let j = i + 1;
    while (j < count && values[j] === value) j++;
    if (j - i >= MIN_RUN) {
      out.varint((j - i) * 2);
      for (let b = 0; b < valueBytes; b++) out.u8((value >>> (8 * b)) & 0xff);
      i = j;
      continue;
    }
    // Bit-packed groups of 8 from i, until a run starts on a group's boundary or the data ends.
    let end = i + MIN_RUN;
    while (end < count && !runStarts(values, end, count)) end += MIN_RUN;
    const groups = (end - i) / MIN_RUN;
    out.varint(groups * 2 + 1);
    out.reserve(groups * width);
    let acc = 0;
    let bits = 0;
    for (let k = i; k < end; k++) {
      const v = k < count ? (values[k] as number) : 0;
      acc |= v << bits;
      bits += width;
      while (bits >= 8) {
        out.u8(acc & 0xff);
        acc >>>= 8;
        bits -= 8;
      }
    }
    i = Math.min(end, count);
  }
}

/** Booleans PLAIN-encoded: bit-packed, the first value in the lowest bit. */
export function writeBitPacked(out: ByteBuffer, values: Uint8Array, count: number): void {
  out.reserve(Math.ceil(count / 8));
  for (let i = 0; i < count; i += 8) {
    let byte = 0;
    for (let b = 0; b < 8 && i + b < count; b++) byte |= (values[i + b] as number) << b;
    out.u8(byte);
  }
}
