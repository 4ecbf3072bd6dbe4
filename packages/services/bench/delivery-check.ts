import type { FakeAws } from "@sightline/aws/testing";
import { Manifest } from "@sightline/reports";
import type { Execution } from "./bench-environment.ts";
import { INBOX_BUCKET } from "./synthetic-model.ts";

export interface Delivery {
  manifest: Manifest;
  objects: number;
  bytes: number;
}

/**
 * Checks what an execution delivered: its manifest arrived, and every object the manifest lists
 * is in the inbox with the manifest's size and SHA-256. A bench of a broken run measures nothing.
 */
export function checkDelivery(fake: FakeAws, execution: Execution): Delivery {
  const stored = (key: string) => fake.objects.get(`${INBOX_BUCKET}/${key}`);
  if (execution.status !== "succeeded")
    throw new Error(
      `${execution.executionId} ended ${execution.status}: ${execution.failureCode} ${execution.failureMessage}`,
    );
  const manifestKey = execution.reportKeys.at(-1) ?? "";
  const body = stored(manifestKey)?.body;
  if (!body?.length) throw new Error(`${execution.executionId}: no manifest at ${manifestKey}`);
  const manifest = Manifest.parse(JSON.parse(body.toString("utf8")));
  let bytes = 0;
  for (const object of manifest.objects) {
    const found = stored(object.key);
    if (found?.size !== object.bytes || found.sha256 !== object.sha256)
      throw new Error(`${execution.executionId}: ${object.key} differs from its manifest entry`);
    bytes += found.size;
  }
  return { manifest, objects: execution.reportKeys.length, bytes };
}
