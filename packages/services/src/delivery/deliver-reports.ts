import {
  buildManifest,
  type DeliveryTarget,
  type ManifestWarning,
  manifestKeys,
  planReportObjects,
  type WrittenReport,
} from "@sightline/reports";
import type { ReportInbox } from "./report-inbox.ts";

/** The largest object S3 copies in one request; a larger file is uploaded again instead. */
const MAX_COPY_BYTES = 5 * 1024 ** 3;

const CONTENT_TYPES: Record<string, string> = {
  csv: "text/csv; charset=utf-8",
  jsonl: "application/x-ndjson",
  parquet: "application/vnd.apache.parquet",
};

/**
 * Uploads every report object, then the manifest: a consumer that sees the manifest sees a
 * complete set. A retried run writes the same keys again. Returns every key, the manifest last.
 */
export async function deliverReports(input: {
  inbox: ReportInbox;
  executionId: string;
  target: DeliveryTarget;
  reports: readonly WrittenReport[];
  warnings: readonly ManifestWarning[];
}): Promise<string[]> {
  const objects = planReportObjects(input.reports, input.target);
  // A file planned under several keys (dated and latest) is sent once, then copied in the inbox.
  const sentAs = new Map<string, string>();
  for (const object of objects) {
    const sent = sentAs.get(object.file.path);
    if (sent !== undefined && object.file.bytes <= MAX_COPY_BYTES) {
      await input.inbox.copyObject(sent, object.key);
      continue;
    }
    await input.inbox.putFile(object.key, object.file.path, {
      contentType: CONTENT_TYPES[object.file.format] ?? "application/octet-stream",
    });
    sentAs.set(object.file.path, object.key);
  }
  const manifest = buildManifest({
    executionId: input.executionId,
    target: input.target,
    reports: input.reports,
    objects,
    warnings: input.warnings,
  });
  const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
  const manifests = manifestKeys(input.target);
  for (const key of manifests)
    await input.inbox.putBytes(key, bytes, { contentType: "application/json" });
  return [...objects.map((object) => object.key), ...manifests];
}
