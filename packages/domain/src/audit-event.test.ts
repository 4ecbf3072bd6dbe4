import { describe, expect, it } from "vitest";
import { diffAuditFields } from "./audit-event.ts";

describe("diffAuditFields", () => {
  it("keeps old and new of plain fields and only 'changed' for secrets", () => {
    const before = {
      deliveryDestinations: { DeliverToS3: { bucketName: "old-inbox" } },
      auditorAuthConfig: { roleArn: "arn:aws:iam::1:role/A", externalId: "ext-1" },
    };
    const after = {
      deliveryDestinations: { DeliverToS3: { bucketName: "new-inbox" } },
      auditorAuthConfig: { roleArn: "arn:aws:iam::1:role/A", externalId: "ext-2" },
    };
    expect(diffAuditFields(before, after)).toEqual({
      "deliveryDestinations.DeliverToS3.bucketName": { old: "old-inbox", new: "new-inbox" },
      "auditorAuthConfig.externalId": "changed",
    });
  });

  it("compares a created object field by field, hiding its secrets", () => {
    const diff = diffAuditFields(undefined, { plan: "Team", webhookSecret: "s3cr3t" });
    expect(diff).toEqual({ plan: { old: null, new: "Team" }, webhookSecret: "changed" });
    expect(JSON.stringify(diff)).not.toContain("s3cr3t");
  });

  it("finds nothing between equal states", () => {
    expect(diffAuditFields({ a: [1, 2], b: { c: "x" } }, { a: [1, 2], b: { c: "x" } })).toEqual({});
  });
});
