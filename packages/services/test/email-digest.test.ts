import type { AccessChange, ChangeCause } from "@sightline/domain";
import { describe, expect, it } from "vitest";
import { emailDigest, MAX_DIGEST_CHANGES } from "../src/alerts/email-digest.ts";

const ACCOUNT = "210987654321";
const bob = `arn:aws:iam::${ACCOUNT}:user/bob`;
const ADMIN = "AdministratorAccess (managed, arn:aws:iam::aws:policy/AdministratorAccess) [#0]";
const adminCause: ChangeCause = {
  kind: "iam-admin",
  principalArn: bob,
  policyArn: "arn:aws:iam::aws:policy/AdministratorAccess",
  eventIds: ["e-1"],
};
let n = 0;
const change = (fields: Partial<AccessChange>): AccessChange => ({
  changeId: (++n).toString(16).padStart(32, "0"),
  kind: "access-gained",
  change: "added",
  principalArn: bob,
  principalName: "bob",
  principalType: "IAMUser",
  serviceName: "S3",
  accessCapability: "read-data",
  resourceArn: "",
  confidential: false,
  before: "no access",
  after: "read-data",
  grantedBy: [ADMIN],
  ...fields,
});

const context = {
  alertId: "a".repeat(32),
  customerId: "C12345",
  accountId: ACCOUNT,
  provider: "aws",
  executionId: `event-C12345-${ACCOUNT}-2026-01-31_AB12`,
  analysisTime: new Date("2026-01-31T07:05:00Z"),
};

/** bob made an admin (his admin change and `capabilities` capabilities), and alice's new key. */
function bobMadeAdmin(capabilities: number): AccessChange[] {
  return [
    change({
      kind: "iam-admin-gained",
      change: "changed",
      serviceName: "",
      accessCapability: "",
      before: "not admin",
      after: "admin",
      cause: adminCause,
    }),
    ...Array.from({ length: capabilities }, (_, i) =>
      change({ serviceName: `Service${i}`, cause: adminCause }),
    ),
    change({
      kind: "credential-created",
      principalArn: `arn:aws:iam::${ACCOUNT}:user/alice`,
      principalName: "alice",
      serviceName: "",
      accessCapability: "access_key_1",
      before: "none",
      after: "Active",
      grantedBy: [],
      cause: { kind: "principal", principalArn: `arn:aws:iam::${ACCOUNT}:user/alice` },
    }),
  ];
}

describe("the email digest", () => {
  it("shows bob's new admin as one entry, its capabilities folded under it", () => {
    const { subject, text, html } = emailDigest(context, bobMadeAdmin(40));
    expect(subject).toBe(`Sightline: 42 access changes in AWS account ${ACCOUNT}`);
    expect(text).toContain(
      "1. bob became an IAM admin — granted by AdministratorAccess (+40 capability changes)\n   Kind: iam-admin-gained\n",
    );
    expect(text).toContain(
      "   - access-gained: bob, Service0 read-data (service-wide) (no access → read-data)",
    );
    expect(text).toContain("   - access-gained: bob, Service39 read-data (service-wide)");
    expect(text).toContain("2. credential-created: alice");
    // One numbered entry per cause, not per change.
    expect(text.match(/^\d+\. /gm)).toHaveLength(2);
    expect(html).toContain(
      "<h3>1. bob became an IAM admin — granted by AdministratorAccess (+40 capability changes)</h3>",
    );
    expect(html.match(/<li>/g)).toHaveLength(40);
  });

  it("lists at most MAX_DIGEST_CHANGES changes, counting the rest", () => {
    const capabilities = MAX_DIGEST_CHANGES + 50;
    const changes = bobMadeAdmin(capabilities);
    const { text } = emailDigest(context, changes);
    expect(text).toContain(`(+${capabilities} capability changes)`);
    expect(text.match(/^ {3}- /gm)).toHaveLength(MAX_DIGEST_CHANGES - 1);
    // alice's entry is past the limit: counted with the folded changes left out.
    expect(text).not.toContain("credential-created: alice");
    const left = changes.length - MAX_DIGEST_CHANGES;
    expect(left).toBe(52);
    expect(text).toContain(
      `… and ${left} more: the analysis's access-changes report lists them all.`,
    );
  });

  it("keeps a change without a cause (stored before causes were) on its own", () => {
    const { text } = emailDigest(context, [
      change({ kind: "iam-admin-gained", before: "not admin", after: "admin" }),
      change({}),
    ]);
    expect(text).toContain("1. iam-admin-gained: bob\n");
    expect(text).toContain("2. access-gained: bob\n");
  });
});
