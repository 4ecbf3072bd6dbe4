import type { EntryBuffer } from "./exceljs-internals.ts";

/** Sheet XML allowed to wait for compression before `write` asks the caller to wait. */
export const PENDING_XML_BYTES = 4 << 20;

/**
 * Holds the writer while the zip lags: `wait` resolves when the sheet's entry is down to half
 * the limit, not empty, so that encoding rows and compressing them keep overlapping (waiting for
 * `drain`, which fires only when it is empty, made the workbook 2.5 times slower). The zip's
 * progress shows in its output, so `check` runs on each chunk the zip writes, and on `drain`.
 */
export function createZipPacer(failed: Promise<never>) {
  let waiting: { entry: EntryBuffer; resolve: () => void } | undefined;
  const check = () => {
    if (waiting && waiting.entry._writableState.length <= PENDING_XML_BYTES / 2) {
      waiting.resolve();
      waiting = undefined;
    }
  };
  return {
    check,
    /** Watches a new sheet's entry; call once per entry. */
    watch(entry: EntryBuffer) {
      entry.on("drain", check);
    },
    /** A promise when `entry` holds too much, raced with `failed`; undefined otherwise. */
    pace(entry: EntryBuffer): Promise<void> | undefined {
      if (entry._writableState.length < PENDING_XML_BYTES) return undefined;
      const below = new Promise<void>((resolve) => {
        waiting = { entry, resolve };
      });
      return Promise.race([below, failed]);
    },
  };
}
