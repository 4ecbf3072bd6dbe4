/**
 * Sets of catalogue actions as bit arrays over a window of 32-bit words. `0` and `1`
 * stand for the empty and the full set so that constant layers cost nothing.
 */
export type Bits = Uint32Array | 0 | 1;

export function unionBits(items: readonly Bits[], width: number): Bits {
  return unionBitsOf(items, itself, width);
}

export function intersectBits(items: readonly Bits[], width: number): Bits {
  return intersectBitsOf(items, itself, width);
}

/** The union of `pick(item)` over the items (one side of each three-valued set, say), without listing them first. */
export function unionBitsOf<T>(items: readonly T[], pick: (item: T) => Bits, width: number): Bits {
  let out: Uint32Array | undefined;
  let single: Uint32Array | undefined;
  for (let k = 0; k < items.length; k++) {
    const item = pick(items[k] as T);
    if (item === 1) return 1;
    if (item === 0) continue;
    if (!single) {
      single = item;
      continue;
    }
    if (!out) out = Uint32Array.from(single);
    for (let i = 0; i < width; i++) out[i] = (out[i] as number) | (item[i] as number);
  }
  return out ?? single ?? 0;
}

/** The intersection of `pick(item)` over the items (see `unionBitsOf`). */
export function intersectBitsOf<T>(
  items: readonly T[],
  pick: (item: T) => Bits,
  width: number,
): Bits {
  let out: Uint32Array | undefined;
  let single: Uint32Array | undefined;
  for (let k = 0; k < items.length; k++) {
    const item = pick(items[k] as T);
    if (item === 0) return 0;
    if (item === 1) continue;
    if (!single) {
      single = item;
      continue;
    }
    if (!out) out = Uint32Array.from(single);
    for (let i = 0; i < width; i++) out[i] = (out[i] as number) & (item[i] as number);
  }
  return out ?? single ?? 1;
}

const itself = (bits: Bits): Bits => bits;

export function complementBits(item: Bits, width: number): Bits {
  if (item === 0) return 1;
  if (item === 1) return 0;
  const out = new Uint32Array(width);
  for (let i = 0; i < width; i++) out[i] = ~(item[i] as number);
  return out;
}

export function hasBit(bits: Bits, index: number): boolean {
  if (bits === 0 || bits === 1) return bits === 1;
  return (((bits[index >>> 5] as number) >>> (index & 31)) & 1) === 1;
}

export function setBit(bits: Uint32Array, index: number): void {
  bits[index >>> 5] = (bits[index >>> 5] as number) | (1 << (index & 31));
}
