declare module "snappyjs" {
  /** Snappy's raw format (no framing), as Parquet's SNAPPY codec stores pages. */
  export function compress<T extends Uint8Array | ArrayBuffer>(uncompressed: T): T;
  export function uncompress<T extends Uint8Array | ArrayBuffer>(
    compressed: T,
    maxLength?: number,
  ): T;
}
