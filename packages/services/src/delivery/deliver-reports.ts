import {
  buildManifest,
  type DeliveryTarget,
  datedManifestKey,
  latestManifestKey,
  type ManifestWarning,
  type PlannedObject,
  planReportObjects,
  type WrittenReport,
  type WrittenWorkbookFile,
} from "@sightline/reports";
import type { ReportInbox } from "./report-inbox.ts";

/** The largest object S3 copies in one request; a larger file is uploaded again instead. */
const MAX_COPY_BYTES = 5 * 1024 ** 3;

const CONTENT_TYPES: Record<string, string> = {
  csv: "text/csv; charset=utf-8",
  jsonl: "application/x-ndjson",
  parquet: "application/vnd.apache.parquet",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

interface DeliveryInput {
  inbox: ReportInbox;
  executionId: string;
  target: DeliveryTarget;
  reports: readonly WrittenReport[];
  /** k9's workbook of the run, delivered dated and listed in the dated manifest. */
  workbook?: WrittenWorkbookFile;
  warnings: readonly ManifestWarning[];
  /**
   * Runs a manifest's write as the holder of the job's lease (its row locked meanwhile), so that
   * an attempt that lost its job never vouches for objects; default: unfenced.
   */
  fence?: <T>(write: () => Promise<T>) => Promise<T>;
  /** Aborted once the job's lease is lost: no further object is sent. */
  signal?: AbortSignal;
  /** Bytes placed so far of all the run's objects (the manifests aside), after each object. */
  onProgress?: (count: { done: number; total: number; unit: "bytes" }) => void;
}

/** Counts the bytes placed, object by object, of `total`. */
function byteCounter(input: DeliveryInput, total: number) {
  let done = 0;
  return (bytes: number) => {
    done += bytes;
    input.onProgress?.({ done, total, unit: "bytes" });
  };
}

/** Uploads each file once; a file already in the inbox under another key is copied there. */
async function place(
  inbox: ReportInbox,
  objects: readonly PlannedObject[],
  sentAs: Map<string, string>,
  signal: AbortSignal | undefined,
  placed: (bytes: number) => void,
) {
  for (const { key, file } of objects) {
    signal?.throwIfAborted();
    const sha256 = file.sha256;
    const sent = sentAs.get(file.path);
    if (sent !== undefined && file.bytes <= MAX_COPY_BYTES) {
      await inbox.copyObject(sent, key, { sha256 });
    } else {
      const contentType = CONTENT_TYPES[file.format] ?? "application/octet-stream";
      await inbox.putFile(key, file.path, { contentType, sha256 });
      sentAs.set(file.path, key);
    }
    placed(file.bytes);
  }
}

async function putManifest(
  input: DeliveryInput,
  key: string,
  objects: readonly PlannedObject[],
): Promise<void> {
  const manifest = buildManifest({ ...input, objects });
  const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  const fence = input.fence ?? ((write) => write());
  await fence(() => input.inbox.putBytes(key, bytes, { contentType: "application/json" }));
}

/**
 * Delivers a run's objects so that every manifest holds: it is written after every object it
 * lists, and lists only objects that do not change under it. The dated objects and the hive
 * copies (listed by none: a later run of the day replaces them), then the dated manifest; then
 * the latest copies, whose manifest is withdrawn first and written again last, so that `latest`
 * is never vouched for while it mixes two runs. A retry writes the same keys (the same minute).
 * Returns every key in the order written: a manifest last.
 */
export async function deliverReports(input: DeliveryInput): Promise<string[]> {
  const { inbox, target } = input;
  const plan = planReportObjects(input.reports, target, input.workbook);
  const sentAs = new Map<string, string>();
  const all = [...plan.dated, ...plan.hive, ...plan.latest];
  const placed = byteCounter(
    input,
    all.reduce((sum, o) => sum + o.file.bytes, 0),
  );
  await place(inbox, plan.dated, sentAs, input.signal, placed);
  await place(inbox, plan.hive, sentAs, input.signal, placed);
  const datedManifest = datedManifestKey(target);
  await putManifest(input, datedManifest, plan.dated);
  const keys = [...plan.dated.map((o) => o.key), ...plan.hive.map((o) => o.key), datedManifest];
  if (plan.latest.length === 0) return keys;
  const latestManifest = latestManifestKey(target);
  await (input.fence ?? ((write) => write()))(() => inbox.deleteObject(latestManifest));
  await place(inbox, plan.latest, sentAs, input.signal, placed);
  await putManifest(input, latestManifest, plan.latest);
  return [...keys, ...plan.latest.map((o) => o.key), latestManifest];
}
