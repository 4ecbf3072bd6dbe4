import { createRequire } from "node:module";

/**
 * Snappy's raw format (no framing), as Parquet's SNAPPY codec stores pages: snappyjs (MIT, pure
 * JavaScript, no dependencies), a CommonJS package without type declarations, typed here.
 */
const snappyjs = createRequire(import.meta.url)("snappyjs") as {
  compress(uncompressed: Uint8Array): Uint8Array;
};

export const snappyCompress = (bytes: Uint8Array): Uint8Array => snappyjs.compress(bytes);
