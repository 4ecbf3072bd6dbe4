import { describe, expect, it } from "vitest";
import type { ChangeCause } from "./change-cause.ts";
import { type GroupableChange, groupChangesByCause } from "./change-groups.ts";

const bob = "arn:aws:iam::210987654321:user/bob";
let n = 0;
const change = (
  kind: string,
  cause: ChangeCause | undefined,
  more: Partial<GroupableChange> = {},
): GroupableChange => ({
  changeId: String(++n),
  kind: kind as GroupableChange["kind"],
  principalArn: bob,
  principalName: "bob",
  resourceArn: "",
  executionId: "e1",
  ...(cause ? { cause } : {}),
  ...more,
});

describe("changes grouped by cause", () => {
  it("makes one group per analysis and cause, named by its IAM-admin change", () => {
    const admin: ChangeCause = {
      kind: "iam-admin",
      principalArn: bob,
      policyArn: "arn:aws:iam::aws:policy/AdministratorAccess",
    };
    // The same cause, but its keys in another order (as jsonb keeps them).
    const reordered = {
      policyArn: admin.policyArn,
      principalArn: bob,
      kind: "iam-admin",
    } as ChangeCause;
    const groups = groupChangesByCause([
      change("access-gained", admin),
      change("iam-admin-gained", reordered),
      change("access-gained", admin),
      change("access-gained", admin, { executionId: "e2" }),
    ]);
    expect(groups.map((g) => [g.title, g.more, g.changes.length])).toEqual([
      ["bob became an IAM admin — granted by AdministratorAccess", "+2 capability changes", 3],
      ["bob became an IAM admin — granted by AdministratorAccess", "", 1],
    ]);
    expect(groups[0]?.head.kind).toBe("iam-admin-gained");
  });

  it("names each kind of cause in words", () => {
    const titles = groupChangesByCause([
      change("iam-admin-lost", { kind: "iam-admin", principalArn: bob }),
      change("access-lost", {
        kind: "policy",
        principalArn: bob,
        policyArn: "arn:aws:iam::1:policy/Ops",
      }),
      change("access-gained", { kind: "policy", principalArn: bob }),
      change("external-access-gained", {
        kind: "resource-policy",
        resourceArn: "arn:aws:s3:::logs",
      }),
      change("access-gained", { kind: "organization", eventIds: ["scp"] }),
      change("access-lost", { kind: "organization", eventIds: ["scp"] }),
      change("credential-created", undefined),
    ]).map((g) => g.title);
    expect(titles).toEqual([
      "bob is no longer an IAM admin",
      "bob lost access through Ops",
      "bob gained access through an inline policy",
      "New access through the resource policy of logs",
      "An SCP or RCP of the organisation: access changed",
      "credential-created: bob",
    ]);
  });
});
