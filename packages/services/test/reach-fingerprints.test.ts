import type { ResourceAccessSummary } from "@sightline/engine";
import { describe, expect, it } from "vitest";
import { reachFingerprints } from "../src/results/incremental-reach.ts";

const row = (resourceArn: string, capability: string): ResourceAccessSummary =>
  ({
    resourceArn,
    resourceType: "S3Bucket",
    service: "S3",
    capability,
    principal: "arn:aws:iam::111122223333:user/bob",
    principalType: "IAMUser",
    inAccount: true,
    conditional: false,
    grantedBy: [{ policyType: "inline", policyName: "p" }],
  }) as ResourceAccessSummary;

describe("reachFingerprints", () => {
  it("keeps only the resources whose rows differ, whether or not the first pass kept rows", () => {
    const before = [row("arn:aws:s3:::a", "read-data"), row("arn:aws:s3:::b", "read-data")];
    const after = [
      row("arn:aws:s3:::a", "read-data"),
      row("arn:aws:s3:::b", "write-data"),
      row("arn:aws:s3:::b", "read-data"),
    ];
    const was = reachFingerprints(before).fingerprints;
    const is = reachFingerprints(after, (arn, fingerprint) => was.get(arn) !== fingerprint);
    expect([...is.kept.keys()]).toEqual(["arn:aws:s3:::b"]);
    expect(is.fingerprints.get("arn:aws:s3:::a")).toBe(was.get("arn:aws:s3:::a"));
    // The same rows in another order: the same fingerprint.
    const reordered = reachFingerprints([after[0], after[2], after[1]] as ResourceAccessSummary[]);
    expect(reordered.fingerprints.get("arn:aws:s3:::b")).toBe(
      is.fingerprints.get("arn:aws:s3:::b"),
    );
  });
});
