/**
 * One upload through the S3 inbox while the process holds a live heap of a chosen size: forked
 * by `upload-case.ts` with SIGHTLINE_BENCH_UPLOAD = JSON of { file, objects, clientOptions,
 * credentials }. Prints JSON on stdout. `objects` small objects stand for an analysis kept alive.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { type AwsClientOptions, type AwsCredentials, createS3Inbox } from "@sightline/aws";
import { INBOX_BUCKET, INBOX_KEY_ARN } from "./synthetic-model.ts";

export interface UploadResult {
  heldObjects: number;
  liveHeapBytes: number;
  seconds: number;
  cpuSeconds: number;
  majorGcs: number;
  gcPauseMs: number;
}

const { file, objects, clientOptions, credentials } = JSON.parse(
  process.env.SIGHTLINE_BENCH_UPLOAD ?? "{}",
) as {
  file: string;
  objects: number;
  clientOptions: AwsClientOptions;
  credentials: AwsCredentials;
};

const held = Array.from({ length: objects }, (_, i) => ({
  arn: `arn:aws:iam::123456789012:role/role-${i}`,
  grants: [i],
}));
(globalThis as { gc?: () => void }).gc?.();
const liveHeapBytes = process.memoryUsage().heapUsed;

let majorGcs = 0;
let gcPauseMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcPauseMs += entry.duration;
    const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) majorGcs++;
  }
}).observe({ entryTypes: ["gc"] });

const inbox = createS3Inbox({
  bucket: INBOX_BUCKET,
  kmsKeyId: INBOX_KEY_ARN,
  credentials,
  clientOptions,
});
// The digest comes with the file in the pipeline (the writers compute it): not timed here.
const digest = createHash("sha256");
for await (const chunk of createReadStream(file)) digest.update(chunk as Buffer);
const sha256 = digest.digest("hex");
const cpu = process.cpuUsage();
const started = performance.now();
await inbox.putFile(`upload-${objects}.csv`, file, { contentType: "text/csv", sha256 });
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
inbox.destroy();
const result: UploadResult = {
  // Read after the upload, so the objects stay alive through it.
  heldObjects: held.length,
  liveHeapBytes,
  seconds,
  cpuSeconds: (used.user + used.system) / 1e6,
  majorGcs,
  gcPauseMs,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
