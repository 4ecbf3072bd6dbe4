import type { AccessChange } from "@sightline/domain";
import { formatGrantSource } from "@sightline/engine";
import { describe, expect, it } from "vitest";
import { causeOfChange, changeCauses, parseGrant } from "../src/changes/change-cause.ts";
import { eventCauses } from "../src/events/event-causes.ts";

const ACCOUNT = "210987654321";
const bob = `arn:aws:iam::${ACCOUNT}:user/bob`;
const ADMIN = "arn:aws:iam::aws:policy/AdministratorAccess";
const admin = formatGrantSource({
  policyType: "managed",
  policyArn: ADMIN,
  policyName: "AdministratorAccess",
  sids: ["#0"],
});

function change(fields: Partial<AccessChange>): AccessChange {
  return {
    changeId: "0".repeat(32),
    kind: "access-gained",
    change: "added",
    principalArn: bob,
    principalName: "bob",
    principalType: "IAMUser",
    serviceName: "",
    accessCapability: "",
    resourceArn: "",
    confidential: false,
    before: "no access",
    after: "read-data",
    grantedBy: [],
    ...fields,
  };
}

describe("a grantedBy entry read back", () => {
  it("names the policy the engine formatted, whatever its statements", () => {
    const viaGroup = formatGrantSource({
      policyType: "group-managed",
      policyArn: "arn:aws:iam::210987654321:policy/ops/Deploy",
      policyName: "Deploy",
      group: `arn:aws:iam::${ACCOUNT}:group/Admins`,
      sids: ["Allow", "#3"],
    });
    expect(parseGrant(viaGroup)).toEqual({
      policyType: "group-managed",
      arn: "arn:aws:iam::210987654321:policy/ops/Deploy",
      group: "Admins",
    });
    expect(parseGrant(admin)).toEqual({ policyType: "managed", arn: ADMIN });
    expect(
      parseGrant(formatGrantSource({ policyType: "inline", policyName: "read-logs", sids: [] })),
    ).toEqual({ policyType: "inline" });
    expect(
      parseGrant(
        formatGrantSource({ policyType: "resource", policyArn: "arn:aws:s3:::logs", sids: ["S"] }),
      ),
    ).toEqual({ policyType: "resource", arn: "arn:aws:s3:::logs" });
  });
});

describe("a change's cause", () => {
  it("is its principal's for a principal change, the granting policy's for access", () => {
    expect(causeOfChange(change({ kind: "credential-created", grantedBy: [] }))).toEqual({
      kind: "principal",
      principalArn: bob,
    });
    expect(causeOfChange(change({ grantedBy: [admin] }))).toEqual({
      kind: "policy",
      principalArn: bob,
      policyArn: ADMIN,
    });
    expect(
      causeOfChange(
        change({
          kind: "external-access-gained",
          principalArn: "444455556666",
          grantedBy: ["resource policy of arn:aws:s3:::logs [#0]"],
        }),
      ),
    ).toEqual({ kind: "resource-policy", resourceArn: "arn:aws:s3:::logs" });
    // Inside the account, the principal's own policy is the cause when it grants too; the
    // resource's policy when it alone grants.
    const key = "resource policy of arn:aws:kms:eu-west-1:111122223333:key/k1 [EnableIAM]";
    expect(causeOfChange(change({ grantedBy: [admin, key] }))).toEqual({
      kind: "policy",
      principalArn: bob,
      policyArn: ADMIN,
    });
    expect(causeOfChange(change({ grantedBy: [key] }))).toEqual({
      kind: "resource-policy",
      resourceArn: "arn:aws:kms:eu-west-1:111122223333:key/k1",
    });
    expect(causeOfChange(change({ kind: "access-lost", grantedBy: [] }))).toEqual({
      kind: "principal",
      principalArn: bob,
    });
  });

  it("folds the capabilities an admin policy brought under the admin change", () => {
    const causeOf = changeCauses();
    const gained = causeOf(change({ kind: "iam-admin-gained", grantedBy: [admin] }));
    expect(gained).toEqual({ kind: "iam-admin", principalArn: bob, policyArn: ADMIN });
    // Another statement of the same policy still folds; another policy does not.
    expect(causeOf(change({ grantedBy: [admin.replace("[#0]", "[#1]")] }))).toBe(gained);
    expect(causeOf(change({ grantedBy: ["inline 'other' [#0]"] }))).toEqual({
      kind: "policy",
      principalArn: bob,
    });
    const alice = `arn:aws:iam::${ACCOUNT}:user/alice`;
    expect(causeOf(change({ principalArn: alice, grantedBy: [admin] }))).toEqual({
      kind: "policy",
      principalArn: alice,
      policyArn: ADMIN,
    });
  });
});

describe("an event step's causes", () => {
  const snapshot = {
    authorizationDetails: {
      UserDetailList: [
        { Arn: bob, UserName: "bob", GroupList: ["Ops"], AttachedManagedPolicies: [] },
      ],
      GroupDetailList: [
        {
          GroupName: "Ops",
          AttachedManagedPolicies: [{ PolicyArn: `arn:aws:iam::${ACCOUNT}:policy/Ops` }],
        },
      ],
      RoleDetailList: [],
    },
  };
  const events = [
    { eventId: "user-bob", targets: [{ kind: "user" as const, name: "bob" }] },
    {
      eventId: "ops-policy",
      targets: [{ kind: "managed-policy" as const, arn: `arn:aws:iam::${ACCOUNT}:policy/Ops` }],
    },
    { eventId: "bucket", targets: [{ kind: "bucket" as const, name: "logs" }] },
    { eventId: "scp", targets: [{ kind: "organization" as const }] },
  ];
  const explain = eventCauses(events, snapshot);
  const causeOf = (c: AccessChange) => explain(c, causeOfChange(c));

  it("names the principal's own event and the policies of its groups", () => {
    expect(causeOf(change({ kind: "access-lost" })).eventIds).toEqual(["user-bob", "ops-policy"]);
  });

  it("names the resource's event for access through its policy", () => {
    const opened = change({
      kind: "external-access-gained",
      principalArn: "444455556666",
      resourceArn: "arn:aws:s3:::logs",
      grantedBy: ["resource policy of arn:aws:s3:::logs [#0]"],
    });
    expect(causeOf(opened)).toEqual({
      kind: "resource-policy",
      resourceArn: "arn:aws:s3:::logs",
      eventIds: ["bucket"],
    });
  });

  it("says which managed policy took access away, when only it names the principal", () => {
    const only = eventCauses(
      [events[1], events[3]].flatMap((e) => e ?? []),
      snapshot,
    );
    const lost = change({ kind: "access-lost" });
    expect(only(lost, causeOfChange(lost))).toEqual({
      kind: "policy",
      principalArn: bob,
      policyArn: `arn:aws:iam::${ACCOUNT}:policy/Ops`,
      eventIds: ["ops-policy"],
    });
  });

  it("names a key's event by its ID or ARN, and a role's for access through its trust policy", () => {
    const key = `arn:aws:kms:eu-west-1:${ACCOUNT}:key/1234abcd-0000-0000-0000-000000000001`;
    const role = `arn:aws:iam::${ACCOUNT}:role/ops/Deployer`;
    const explain = eventCauses(
      [
        { eventId: "by-arn", targets: [{ kind: "key", keyId: key, region: "eu-west-1" }] },
        {
          eventId: "by-id",
          targets: [{ kind: "key", keyId: key.split("/")[1] ?? "", region: "eu-west-1" }],
        },
        { eventId: "trust", targets: [{ kind: "role", name: "Deployer" }] },
      ],
      snapshot,
    );
    const onKey = change({ resourceArn: key, grantedBy: [`resource policy of ${key} [#0]`] });
    expect(explain(onKey, causeOfChange(onKey)).eventIds).toEqual(["by-arn", "by-id"]);
    const assume = change({ resourceArn: role, grantedBy: [`resource policy of ${role} [#0]`] });
    expect(explain(assume, causeOfChange(assume))).toEqual({
      kind: "resource-policy",
      resourceArn: role,
      eventIds: ["trust"],
    });
  });

  it("gives an SCP what nothing else names, and the whole step what nothing names", () => {
    const carol = change({ principalArn: `arn:aws:iam::${ACCOUNT}:role/carol` });
    expect(causeOf(carol)).toEqual({ kind: "organization", eventIds: ["scp"] });
    const without = eventCauses(events.slice(0, 2), snapshot);
    expect(without(carol, causeOfChange(carol)).eventIds).toEqual(["user-bob", "ops-policy"]);
  });
});
