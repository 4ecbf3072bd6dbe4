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
  for (const key of execution.reportKeys) {
    const object = stored(key);
    if (!object) throw new Error(`${execution.executionId}: ${key} was not delivered`);
    bytes += object.size;
    const [name = key, ...rest] = key.slice(key.lastIndexOf("/") + 1).split(".");
    const format = rest.at(-1) ?? "";
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
  return { manifests, objects: execution.reportKeys.length, bytes, files: [...files.values()] };
}
