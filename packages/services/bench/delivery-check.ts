import type { FakeAws } from "@sightline/aws-fake";
import { Manifest } from "@sightline/reports";
import type { Execution } from "./bench-environment.ts";
import { INBOX_BUCKET } from "./synthetic-model.ts";

export interface Delivery {
  /** Every manifest of the run: the dated one, and the latest one when asked. */
  manifests: Manifest[];
  objects: number;
  /** Bytes of every object delivered, manifests included. */
  bytes: number;
  /** Each report file once (its dated, latest and hive copies are the same file), by key name. */
  files: { name: string; format: string; bytes: number }[];
  /** Bytes sent to the inbox (PutObject and UploadPart bodies, retries included). */
  uploadedBytes: number;
  /** The objects by kind (dated, latest, hive; format): stored bytes, and how many were sent. */
  kinds: ObjectKind[];
}

export interface ObjectKind {
  kind: string;
  objects: number;
  /** Bytes of the objects as stored. */
  bytes: number;
  /** Bytes sent for them: a server-side copy sends none. */
  uploadedBytes: number;
  copies: number;
}

const SENDS = new Set(["PutObject", "UploadPart"]);

function kindOf(key: string, format: string): string {
  const where = key.startsWith("hive/")
    ? "k9 hive"
    : key.startsWith("sightline/hive/")
      ? "sightline hive"
      : key.includes("/latest/")
        ? "latest"
        : "dated";
  return `${where} ${format}`;
}

/** What was sent per key, and which keys were written by a server-side copy. */
function sentByKey(fake: FakeAws) {
  const sent = new Map<string, number>();
  const copied = new Set<string>();
  for (const call of fake.calls) {
    if (call.service !== "s3" || call.resource !== INBOX_BUCKET || !call.key) continue;
    if (call.operation === "CopyObject") copied.add(call.key);
    if (!SENDS.has(call.operation)) continue;
    const length = Number(
      call.headers["x-amz-decoded-content-length"] ?? call.headers["content-length"] ?? 0,
    );
    sent.set(call.key, (sent.get(call.key) ?? 0) + length);
  }
  return { sent, copied };
}

/**
 * Checks what an execution delivered: every object it names arrived, and every object each of
 * its manifests lists is in the inbox with the listed size and SHA-256. A bench of a broken run
 * measures nothing.
 */
export function checkDelivery(fake: FakeAws, execution: Execution): Delivery {
  const stored = (key: string) => fake.objects.get(`${INBOX_BUCKET}/${key}`);
  if (execution.status !== "succeeded")
    throw new Error(
      `${execution.executionId} ended ${execution.status}: ${execution.failureCode} ${execution.failureMessage}`,
    );
  const manifests: Manifest[] = [];
  const files = new Map<string, { name: string; format: string; bytes: number }>();
  let bytes = 0;
  const { sent, copied } = sentByKey(fake);
  const kinds = new Map<string, ObjectKind>();
  for (const key of execution.reportKeys) {
    const object = stored(key);
    if (!object) throw new Error(`${execution.executionId}: ${key} was not delivered`);
    bytes += object.size;
    const [name = key, ...rest] = key.slice(key.lastIndexOf("/") + 1).split(".");
    const format = rest.at(-1) ?? "";
    const kind = name === "manifest" ? `${kindOf(key, "")}manifest` : kindOf(key, format);
    const entry = kinds.get(kind) ?? { kind, objects: 0, bytes: 0, uploadedBytes: 0, copies: 0 };
    entry.objects++;
    entry.bytes += object.size;
    entry.uploadedBytes += sent.get(key) ?? 0;
    if (copied.has(key)) entry.copies++;
    kinds.set(kind, entry);
    if (name === "manifest") {
      manifests.push(Manifest.parse(JSON.parse(object.body.toString("utf8"))));
      continue;
    }
    files.set(`${name}.${format}`, { name, format, bytes: object.size });
  }
  if (manifests.length === 0) throw new Error(`${execution.executionId}: no manifest delivered`);
  for (const manifest of manifests)
    for (const object of manifest.objects) {
      const found = stored(object.key);
      if (found?.size !== object.bytes || found.sha256 !== object.sha256)
        throw new Error(`${execution.executionId}: ${object.key} differs from its manifest entry`);
    }
  return {
    manifests,
    objects: execution.reportKeys.length,
    bytes,
    files: [...files.values()],
    uploadedBytes: [...sent.values()].reduce((a, b) => a + b, 0),
    kinds: [...kinds.values()],
  };
}
