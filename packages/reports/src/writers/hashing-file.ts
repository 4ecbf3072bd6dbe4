import { createHash } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";

/**
 * How the writers create their files: the local disk by default; a test's seam to fill the disk
 * (`ENOSPC`) or stall a write.
 */
export interface ReportFiles {
  createWriteStream(path: string, options: { highWaterMark: number }): Writable;
}

export const LOCAL_FILES: ReportFiles = { createWriteStream };

/** A report file as written: its size and SHA-256 are computed from the bytes on their way out. */
export interface WrittenFile {
  path: string;
  bytes: number;
  sha256: string;
  rows: number;
}

/** Bytes the stream may hold before the writer waits: the disk works while rows are encoded. */
const STREAM_BUFFER_BYTES = 1 << 20;

/** A local file written through a stream, hashed and counted on the way. */
export class HashingFile {
  readonly #stream;
  readonly #hash = createHash("sha256");
  #bytes = 0;
  #error: Error | undefined;

  constructor(
    readonly path: string,
    files: ReportFiles = LOCAL_FILES,
  ) {
    this.#stream = files.createWriteStream(path, { highWaterMark: STREAM_BUFFER_BYTES });
    // Without a listener, a write error would crash the process before anyone awaits.
    this.#stream.on("error", (error) => {
      this.#error ??= error;
    });
  }

  /** Returns a promise only when the stream is full: await it before writing more. */
  write(chunk: string | Uint8Array): Promise<void> | undefined {
    if (this.#error) throw this.#error;
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    this.#hash.update(bytes);
    this.#bytes += bytes.byteLength;
    if (this.#stream.write(bytes)) return undefined;
    return once(this.#stream, "drain").then(() => undefined);
  }

  async close(rows: number): Promise<WrittenFile> {
    this.#stream.end();
    await finished(this.#stream);
    if (this.#error) throw this.#error;
    return { path: this.path, bytes: this.#bytes, sha256: this.#hash.digest("hex"), rows };
  }

  /** Stops writing and removes the partial file. */
  async abort(): Promise<void> {
    this.#stream.destroy();
    await finished(this.#stream).catch(() => undefined);
    await rm(this.path, { force: true });
  }
}
