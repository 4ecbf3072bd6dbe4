import { changeMatchesKind } from "@sightline/domain";
import { describe, expect, it } from "vitest";
import {
  type ComparisonContext,
  comparePrincipals,
  compareResources,
  mergeSorted,
} from "../src/changes/compare-results.ts";
import { FindingCollector, summaryOfReach } from "../src/findings/findings.ts";
import {
  compareCodePoints,
  type PrincipalRecord,
  type ResourceRecord,
  storedPrincipal,
} from "../src/results/result-records.ts";
import { inMemory, resourceInMemory } from "../src/results/stored-items.ts";

const context: ComparisonContext = {
  previousExecutionId: "before",
  executionId: "after",
  confidentialValues: new Set(["secret"]),
};

async function* stream<T>(items: readonly T[]) {
  for (const item of items) yield item;
}
async function* resourcesStored(items: readonly ResourceRecord[]) {
  for (const item of items) yield resourceInMemory(item);
}
/** Records as the store hands them over. */
async function* stored<T extends { arn: string }>(items: readonly T[]) {
  for (const item of items) yield inMemory(item);
}
async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const principal = (name: string, more: Partial<PrincipalRecord> = {}): PrincipalRecord => ({
  arn: `arn:aws:iam::111122223333:user/${name}`,
  name,
  type: "IAMUser",
  iamAdmin: "no",
  iamAdminGrantedBy: [],
  credentials: {},
  access: [],
  ...more,
});

const resource = (name: string, more: Partial<ResourceRecord> = {}): ResourceRecord => ({
  arn: `arn:aws:s3:::${name}`,
  type: "S3Bucket",
  service: "S3",
  name,
  tags: {},
  confidentiality: "",
  reach: [],
  ...more,
});

describe("the order both sides are read in", () => {
  it('is code-point order, as Postgres\'s COLLATE "C" sorts', () => {
    const words = ["b", "B", "a/b", "a-b", "ä", "\u{1F600}", "\uFFFF", "a"];
    const sorted = [...words].sort(compareCodePoints);
    // UTF-8 byte order is code-point order: an astral character sorts after U+FFFF.
    expect(sorted).toEqual(["B", "a", "a-b", "a/b", "b", "ä", "\uFFFF", "\u{1F600}"]);
    const bytes = [...words].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect(sorted).toEqual(bytes);
  });

  it("pairs namesakes and leaves the others alone", async () => {
    const pairs = await all(mergeSorted(stream(["a", "c", "d"]), stream(["b", "c"]), (x) => x));
    expect(pairs).toEqual([
      ["a", undefined],
      [undefined, "b"],
      ["c", "c"],
      ["d", undefined],
    ]);
  });
});

describe("comparePrincipals", () => {
  it("finds nothing between equal analyses", async () => {
    const same = [principal("a", { access: [["S3", "read-data", "", 0, ["x"]]] }), principal("b")];
    expect(await all(comparePrincipals(context, stored(same), stored(same)))).toEqual([]);
  });

  it("names principals added and removed, a new admin twice, and no capability of theirs", async () => {
    const before = [principal("gone", { access: [["S3", "read-data", "", 0, []]] })];
    const after = [
      principal("new", {
        iamAdmin: "yes",
        iamAdminGrantedBy: ["AdministratorAccess"],
        access: [["IAM", "administer-resource", "", 0, []]],
      }),
    ];
    const changes = await all(comparePrincipals(context, stored(before), stored(after)));
    // In ARN order: `gone` before `new`.
    expect(changes.map((c) => [c.kind, c.principalName, c.change])).toEqual([
      ["principal-removed", "gone", "removed"],
      ["principal-added", "new", "added"],
      ["iam-admin-gained", "new", "added"],
    ]);
    expect(changes[2]?.grantedBy).toEqual(["AdministratorAccess"]);
  });

  it("tells capabilities gained and lost per service and resource, and conditions that come and go", async () => {
    const before = [
      principal("p", {
        access: [
          ["KMS", "use-resource", "", 1, ["k"]],
          ["S3", "read-data", "arn:aws:s3:::a/*", 0, ["a"]],
          ["S3", "write-data", "", 0, ["w"]],
        ],
      }),
    ];
    const after = [
      principal("p", {
        access: [
          ["KMS", "use-resource", "", 0, ["k2"]],
          ["S3", "read-data", "arn:aws:s3:::a/*", 0, ["a"]],
          ["S3", "read-data", "arn:aws:s3:::b/*", 0, ["b"]],
          ["S3", "write-data", "", 1, ["w"]],
        ],
      }),
    ];
    const changes = await all(comparePrincipals(context, stored(before), stored(after)));
    expect(
      changes.map((c) => [
        c.kind,
        c.serviceName,
        c.accessCapability,
        c.resourceArn,
        c.before,
        c.after,
      ]),
    ).toEqual([
      ["access-gained", "KMS", "use-resource", "", "use-resource (conditional)", "use-resource"],
      ["access-gained", "S3", "read-data", "arn:aws:s3:::b/*", "no access", "read-data"],
      ["access-lost", "S3", "write-data", "", "write-data", "write-data (conditional)"],
    ]);
    expect(changes[1]?.grantedBy).toEqual(["b"]);
  });

  it("tells credentials created, activated, deactivated and deleted", async () => {
    const key = (state: string, lastRotated = "2026-01-01T00:00:00.000Z") => ({
      state,
      lastRotated,
    });
    const before = [
      principal("p", {
        credentials: {
          accessKey1: key("Active"),
          accessKey2: key("Inactive"),
          password: key("Active"),
        },
      }),
      principal("q", { credentials: { accessKey1: key("Active") } }),
    ];
    const after = [
      principal("p", { credentials: { accessKey1: key("Inactive"), accessKey2: key("Active") } }),
      principal("q", {
        credentials: {
          accessKey1: key("Active", "2026-02-01T00:00:00.000Z"),
          password: key("Active"),
        },
      }),
    ];
    const changes = await all(comparePrincipals(context, stored(before), stored(after)));
    expect(
      changes.map((c) => [c.principalName, c.kind, c.accessCapability, c.before, c.after]),
    ).toEqual([
      ["p", "credential-deactivated", "password", "Active", "deleted"],
      ["p", "credential-deactivated", "access_key_1", "Active", "Inactive"],
      ["p", "credential-activated", "access_key_2", "Inactive", "Active"],
      ["q", "credential-created", "password", "none", "Active"],
      ["q", "credential-created", "access_key_1", "Active", "Active"],
    ]);
  });

  it("reads only the details of a principal whose access is the same (its bytes are not inflated)", async () => {
    const stored = (state: string, lastUsed: string) =>
      storedPrincipal({
        principalArn: "arn:aws:iam::111122223333:user/p",
        principalName: "p",
        principalType: "IAMUser",
        iamAdmin: "no",
        // Not deflate: inflating it would throw.
        data: Buffer.from("the same access, never read"),
        details: {
          lastUsed,
          credentials: { accessKey1: { state, lastRotated: "2026-01-01T00:00:00.000Z" } },
        },
      });
    async function* one<T>(item: T) {
      yield item;
    }
    const used = await all(
      comparePrincipals(
        context,
        one(stored("Active", "2026-01-01")),
        one(stored("Active", "2026-01-02")),
      ),
    );
    expect(used).toEqual([]);
    const deactivated = await all(
      comparePrincipals(
        context,
        one(stored("Active", "2026-01-01")),
        one(stored("Inactive", "2026-01-02")),
      ),
    );
    expect(deactivated.map((c) => [c.kind, c.accessCapability])).toEqual([
      ["credential-deactivated", "access_key_1"],
    ]);
  });

  it("gives a change the same ID between the same analyses only", async () => {
    const before = [principal("p")];
    const after = [principal("p", { iamAdmin: "yes" })];
    const [once] = await all(comparePrincipals(context, stored(before), stored(after)));
    const [again] = await all(comparePrincipals(context, stored(before), stored(after)));
    const [later] = await all(
      comparePrincipals({ ...context, executionId: "later" }, stored(before), stored(after)),
    );
    expect(once?.changeId).toMatch(/^[0-9a-f]{32}$/);
    expect(again?.changeId).toBe(once?.changeId);
    expect(later?.changeId).not.toBe(once?.changeId);
  });
});

describe("compareResources", () => {
  it("reports access newly reaching from outside (account, principal, everyone) and into confidential resources only", async () => {
    const before = [
      resource("open", {
        reach: [["arn:aws:iam::111122223333:role/r", "IAMRole", "read-data", 1, 0, []]],
      }),
    ];
    const after = [
      resource("open", {
        reach: [
          ["*", "Anonymous", "read-data", 0, 1, ["resource policy"]],
          ["444455556666", "Account", "write-data", 0, 0, []],
          ["arn:aws:iam::111122223333:role/r", "IAMRole", "read-data", 1, 0, []],
          ["arn:aws:iam::111122223333:role/s", "IAMRole", "read-data", 1, 0, []],
          ["arn:aws:iam::777788889999:role/x", "IAMRole", "read-data", 0, 0, []],
        ],
      }),
      resource("vault", {
        confidentiality: "Secret",
        reach: [["arn:aws:iam::111122223333:role/s", "IAMRole", "read-data", 1, 0, ["inline 'v'"]]],
      }),
    ];
    const changes = await all(
      compareResources(context, resourcesStored(before), resourcesStored(after)),
    );
    expect(
      changes.map((c) => [c.kind, c.resourceArn, c.principalArn, c.reach, c.confidential, c.after]),
    ).toEqual([
      [
        "external-access-gained",
        "arn:aws:s3:::open",
        "*",
        "everyone",
        false,
        "read-data (conditional)",
      ],
      [
        "external-access-gained",
        "arn:aws:s3:::open",
        "444455556666",
        "external-account",
        false,
        "write-data",
      ],
      [
        "external-access-gained",
        "arn:aws:s3:::open",
        "arn:aws:iam::777788889999:role/x",
        "external-principal",
        false,
        "read-data",
      ],
      [
        "confidential-access-gained",
        "arn:aws:s3:::vault",
        "arn:aws:iam::111122223333:role/s",
        "account",
        true,
        "read-data",
      ],
    ]);
    expect(changes.every((c) => c.serviceName === "S3")).toBe(true);
    // The rules: an external gain answers the external rule, a confidential one the confidential rule.
    expect(changeMatchesKind(changes[1] as never, "external-access-gained")).toBe(true);
    expect(changeMatchesKind(changes[3] as never, "confidential-access-gained")).toBe(true);
    expect(changeMatchesKind(changes[3] as never, "external-access-gained")).toBe(false);
  });
});

describe("FindingCollector", () => {
  const now = new Date("2026-06-01T00:00:00Z");
  const ago = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

  it("finds the katas' subjects past their thresholds, and nothing below them", () => {
    const collector = new FindingCollector(
      { customerId: "C12345", accountId: "111122223333" },
      now,
    );
    collector.addPrincipal(principal("admin", { iamAdmin: "yes", lastUsed: ago(1) }));
    collector.addPrincipal(principal("idle", { lastUsed: ago(91) }));
    collector.addPrincipal(principal("fresh", { lastUsed: ago(89) }));
    collector.addPrincipal(principal("never"));
    collector.addPrincipal(
      principal("keys", {
        lastUsed: ago(1),
        credentials: {
          password: { state: "Active", lastRotated: ago(120) },
          accessKey1: { state: "Active", lastRotated: ago(100), lastUsed: ago(95) },
          accessKey2: { state: "Inactive", lastRotated: ago(300) },
        },
      }),
    );
    const holders = Array.from(
      { length: 6 },
      (_, i) => [`arn:p${i}`, "IAMRole", "write-data", 1, 0, []] as const,
    );
    const busy = resource("busy", {
      reach: [...holders, ["999900001111", "Account", "read-data", 0, 0, []]],
    });
    collector.addResource(busy, summaryOfReach(busy.reach));
    {
      const r = resource("quiet", { reach: holders.slice(0, 5) });
      collector.addResource(r, summaryOfReach(r.reach));
    }
    const found = collector.findings().map((f) => [f.kind, f.subject]);
    expect(found).toEqual([
      ["iam-admin", "arn:aws:iam::111122223333:user/admin"],
      ["unused-principal", "arn:aws:iam::111122223333:user/idle"],
      ["unused-principal", "arn:aws:iam::111122223333:user/never"],
      ["stale-password", "arn:aws:iam::111122223333:user/keys"],
      ["stale-access-key", "arn:aws:iam::111122223333:user/keys#access_key_1"],
      ["unused-access-key", "arn:aws:iam::111122223333:user/keys#access_key_1"],
      ["over-accessible-resource", "arn:aws:s3:::busy#write-data"],
      ["external-access", "arn:aws:s3:::busy#999900001111"],
    ]);
    const ids = collector.findings().map((f) => f.findingId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("keeps a finding's ID from one analysis to the next, per customer and account", () => {
    const idOf = (customerId: string, at: Date) => {
      const collector = new FindingCollector({ customerId, accountId: "111122223333" }, at);
      collector.addPrincipal(principal("never"));
      return collector.findings()[0]?.findingId;
    };
    expect(idOf("C12345", now)).toBe(idOf("C12345", new Date()));
    expect(idOf("C12345", now)).not.toBe(idOf("C54321", now));
  });
});
