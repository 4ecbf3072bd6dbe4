import { inflateRawSync } from "node:zlib";
import type { GrantSource, ResourceAccessSummary } from "@sightline/engine";
import { describe, expect, it } from "vitest";
import { compareResources } from "../src/changes/compare-results.ts";
import { numberAgreement } from "../src/results/number-agreement.ts";
import { decodeReach, ReachNumbering, ReachWriter } from "../src/results/reach-encoding.ts";
import {
  appendableReach,
  decodeReachDictionary,
  decodeResource,
  encodeReachDictionary,
  encodeResource,
  reachDictionaryJson,
  storedResource,
} from "../src/results/result-records.ts";
import type { StoredResourceItem } from "../src/results/stored-items.ts";

const admin: GrantSource = {
  policyType: "managed",
  policyArn: "arn:aws:iam::aws:policy/AdministratorAccess",
};
const inline: GrantSource = { policyType: "inline", policyName: "s3-read" };
// Another object naming the same policy: one number.
const adminAgain: GrantSource = { ...admin };
const bucketPolicy: GrantSource = { policyType: "resource", policyArn: "arn:aws:s3:::data" };

function row(fields: Partial<ResourceAccessSummary>): ResourceAccessSummary {
  return {
    resourceArn: "arn:aws:s3:::data",
    resourceType: "S3Bucket",
    service: "S3",
    capability: "read-data",
    principal: "arn:aws:iam::111122223333:role/Reader",
    principalType: "IAMRole",
    inAccount: true,
    conditional: false,
    grantedBy: [inline],
    ...fields,
  } as ResourceAccessSummary;
}

const rows = [
  row({}),
  row({ capability: "write-data", conditional: true, grantedBy: [inline, bucketPolicy] }),
  row({
    principal: "arn:aws:iam::111122223333:user/admin",
    principalType: "IAMUser",
    grantedBy: [admin],
  }),
  row({
    principal: "arn:aws:iam::111122223333:user/admin",
    principalType: "IAMUser",
    capability: "delete-data",
    grantedBy: [adminAgain],
  }),
  row({
    principal: "444455556666",
    principalType: "Account",
    inAccount: false,
    grantedBy: [bucketPolicy],
  }),
  row({
    principal: "*",
    principalType: "Anonymous",
    inAccount: false,
    grantedBy: [bucketPolicy, admin, inline],
  }),
  // A principal named with another type is its own entry.
  row({
    principal: "444455556666",
    principalType: "ExternalPrincipal",
    inAccount: false,
    grantedBy: [],
  }),
  // Numbers above 127 take more than one byte.
  ...Array.from({ length: 300 }, (_, i) =>
    row({
      principal: `arn:aws:iam::111122223333:role/R${i}`,
      grantedBy: [{ policyType: "inline", policyName: `p${i}` }],
    }),
  ),
];

const expected = (r: ResourceAccessSummary) => [
  r.principal,
  r.principalType,
  r.capability,
  r.inAccount ? 1 : 0,
  r.conditional ? 1 : 0,
];

describe("a resource's reach as numbers", () => {
  it("decodes to the rows it was written from, policies named as the reports name them", () => {
    const numbering = new ReachNumbering();
    const writer = new ReachWriter();
    for (const r of rows) writer.add(numbering, r);
    const entries = decodeReach(writer.bytes(), numbering.dictionary());
    expect(entries).toHaveLength(rows.length);
    expect(entries.map(([p, t, c, a, k]) => [p, t, c, a, k])).toEqual(rows.map(expected));
    // The names are formatGrantSource's: every policy of the row appears, in order.
    entries.forEach((entry, i) => {
      const names = entry[5];
      const sources = (rows[i] as ResourceAccessSummary).grantedBy ?? [];
      expect(names).toHaveLength(sources.length);
      sources.forEach((source, j) => {
        expect(names[j]).toContain(source.policyArn ?? source.policyName);
      });
    });
  });

  it("names each row's own list when lists take turns, more of them than it remembers", () => {
    // A resource's classes of principals take turns, each with its list.
    const lists = Array.from({ length: 11 }, (_, i): GrantSource[] =>
      i % 2 ? [{ policyType: "inline", policyName: `p${i}` }, bucketPolicy] : [{ ...inline }],
    );
    const turns = Array.from({ length: 200 }, (_, i) =>
      row({ grantedBy: lists[(i * 7) % (i < 100 ? 3 : 11)] as GrantSource[] }),
    );
    const numbering = new ReachNumbering();
    const writer = new ReachWriter();
    for (const r of turns) writer.add(numbering, r);
    const entries = decodeReach(writer.bytes(), numbering.dictionary());
    expect(entries.map((entry) => entry[5])).toEqual(
      turns.map((r) => (r.grantedBy ?? []).map((s) => expect.stringContaining(s.policyName ?? ""))),
    );
  });

  it("numbers a principal, a capability and a list of policies once per analysis", () => {
    const numbering = new ReachNumbering();
    const first = new ReachWriter();
    const second = new ReachWriter();
    for (const r of rows.slice(0, 4)) first.add(numbering, r);
    for (const r of rows.slice(0, 4))
      second.add(numbering, { ...r, resourceArn: "arn:aws:s3:::other" });
    const { principals, capabilities, grants } = numbering.dictionary();
    expect(principals).toHaveLength(2);
    expect(capabilities).toEqual(["read-data", "write-data", "delete-data"]);
    // [inline], [inline, bucketPolicy], [admin] (adminAgain is the same policy).
    expect(grants).toHaveLength(3);
    expect(Buffer.from(second.bytes()).equals(Buffer.from(first.bytes()))).toBe(true);
  });

  it("is stored deflated with the resource's service and tags, and read back through the dictionary", async () => {
    const numbering = new ReachNumbering();
    const writer = new ReachWriter();
    for (const r of rows) writer.add(numbering, r);
    const stored = encodeResource(
      confidential,
      JSON.stringify({ service: "S3", tags: { Confidentiality: "secret" } }),
      writer.bytes(),
      JSON.stringify({ service: "S3", tags: {}, grants: [], reach: [] }),
      new Map([["write-data", 1]]),
    );
    expect(stored.holders).toEqual({ "write-data": 1 });
    const dictionary = decodeReachDictionary(await encodeReachDictionary(numbering.dictionary()));
    const record = await decodeResource(stored, async () => dictionary);
    expect(record.service).toBe("S3");
    expect(record.tags).toEqual({ Confidentiality: "secret" });
    expect(record.reach).toHaveLength(rows.length);
    // Sorted for the comparison: by principal, type, capability.
    const keys = record.reach.map((e) => `${e[0]}\u0000${e[1]}\u0000${e[2]}`);
    expect(keys).toEqual([...keys].sort());
    // An event step appends entries as a stream of their own, after the stored one.
    expect([...stored.data.subarray(-2)]).toEqual([0x03, 0x00]);
    const more = new ReachWriter();
    const added = row({
      principal: "arn:aws:iam::111122223333:user/new",
      capability: "delete-data",
    });
    more.add(numbering, added);
    const appended = {
      ...stored,
      // As `appendResourceReach` does in Postgres: in place of the empty final block.
      data: Buffer.concat([stored.data.subarray(0, -2), appendableReach(more.bytes())]),
    };
    const grown = await decodeResource(appended, async () => numbering.dictionary());
    expect(grown.reach).toHaveLength(rows.length + 1);
    expect(grown.reach).toContainEqual([
      added.principal,
      "IAMRole",
      "delete-data",
      1,
      0,
      ["inline 's3-read'"],
    ]);
    expect(grown.tags).toEqual({ Confidentiality: "secret" });
    // Many entries are deflated (a few are stored as they are): either reads on the same way.
    const many = new ReachWriter();
    const users = Array.from({ length: 400 }, (_, i) =>
      row({ principal: `arn:aws:iam::111122223333:user/u${i}`, capability: "write-data" }),
    );
    for (const r of users) many.add(numbering, r);
    const big = appendableReach(many.bytes());
    expect(big.length).toBeLessThan(many.bytes().length);
    const twice = {
      ...appended,
      data: Buffer.concat([appended.data.subarray(0, -2), big]),
    };
    const grownTwice = await decodeResource(twice, async () => numbering.dictionary());
    expect(grownTwice.reach).toHaveLength(rows.length + 1 + users.length);
    expect(grownTwice.reach.filter((e) => e[0].includes(":user/u"))).toHaveLength(400);
  });

  it("stores a dictionary of many grant lists as the deflated JSON of the whole, made in pieces", async () => {
    const odd = ['quote " and \\ backslash', "line\nbreak", "\u2028", "é ☃ 😀", "lone \ud800"];
    const grants = Array.from({ length: 4_321 }, (_, i) =>
      i === 0
        ? []
        : Array.from({ length: 1 + (i % 4) }, (_, j) => `${odd[(i + j) % odd.length]} ${i}`),
    );
    const dictionary = {
      principals: [["arn:aws:iam::111122223333:role/a", "IAMRole"]] as [string, string][],
      capabilities: ["read-data", "write-data"],
      grants,
    };
    const pieces = [...reachDictionaryJson(dictionary)];
    expect(pieces.length).toBeGreaterThan(3);
    // The grant lists' count comes before them, so that an event step reads no further.
    const { principals, capabilities } = dictionary;
    const written = JSON.stringify({ principals, capabilities, grantCount: grants.length, grants });
    expect(pieces.join("")).toBe(written);
    const stored = await encodeReachDictionary(dictionary);
    expect(inflateRawSync(stored).toString("utf8")).toBe(written);
    expect(decodeReachDictionary(stored).grants[4_320]).toEqual(grants[4_320]);
    const empty = { principals: [], capabilities: [], grants: [] };
    expect(decodeReachDictionary(await encodeReachDictionary(empty))).toEqual({
      ...empty,
      grantCount: 0,
    });
  });

  it("refuses bytes that name numbers the dictionary does not hold", () => {
    const numbering = new ReachNumbering();
    const writer = new ReachWriter();
    for (const r of rows) writer.add(numbering, r);
    const bytes = writer.bytes();
    expect(() => decodeReach(bytes, { principals: [], capabilities: [], grants: [] })).toThrow(
      /dictionary does not hold/,
    );
    expect(() =>
      decodeReach(bytes.subarray(0, bytes.length - 1), numbering.dictionary()),
    ).toThrow();
  });

  it("compares equal reach as equal though another principal shifted the numbers", async () => {
    const store = async (numbering: ReachNumbering, reach: readonly ResourceAccessSummary[]) => {
      const writer = new ReachWriter();
      for (const r of reach) writer.add(numbering, r);
      const dictionary = numbering.dictionary();
      return storedResource(confidentialResource(writer.bytes()), async () => dictionary);
    };
    const yesterday = await store(new ReachNumbering(), rows);
    // Today another resource is read first: a new principal takes number 0.
    const today = new ReachNumbering();
    new ReachWriter().add(today, row({ principal: "arn:aws:iam::111122223333:role/New" }));
    const same = await store(today, rows);
    expect(same.sameAs(yesterday)).toBe(false);
    const changes = async (after: typeof same) => {
      const found = [];
      for await (const change of compareResources(context, one(yesterday), one(after)))
        found.push(change);
      return found;
    };
    expect(await changes(same)).toEqual([]);
    // The same numbering with one more reader: exactly that reader is new.
    const more = await store(today, [
      ...rows,
      row({ principal: "arn:aws:iam::111122223333:role/New" }),
    ]);
    const found = await changes(more);
    expect(found.map((c) => [c.kind, c.principalArn, c.accessCapability])).toEqual([
      ["confidential-access-gained", "arn:aws:iam::111122223333:role/New", "read-data"],
    ]);
  });

  it("tells apart equal bytes whose numbers name another principal in each analysis", async () => {
    const store = (
      numbering: ReachNumbering,
      reader: string,
      renumbered?: ReturnType<typeof numberAgreement>,
    ) => {
      const writer = new ReachWriter();
      writer.add(numbering, row({ principal: reader }));
      const dictionary = numbering.dictionary();
      const stored = confidentialResource(writer.bytes());
      return {
        dictionary,
        data: stored.data,
        item: storedResource(stored, async () => dictionary, renumbered),
      };
    };
    // Yesterday's reader was removed today, and a new one took its number 0: the same bytes.
    const [old, gone] = [new ReachNumbering(), "arn:aws:iam::111122223333:role/Gone"];
    const [now, added] = [new ReachNumbering(), "arn:aws:iam::111122223333:role/Added"];
    const yesterday = store(old, gone);
    const today = store(now, added);
    expect(today.data.equals(yesterday.data)).toBe(true);
    const renumbered = numberAgreement(yesterday.dictionary, today.dictionary);
    expect(renumbered).toBeDefined();
    expect(numberAgreement(yesterday.dictionary, yesterday.dictionary)).toBeUndefined();
    const changes = async (was: StoredResourceItem, is: StoredResourceItem) => {
      const found = [];
      for await (const change of compareResources(context, one(was), one(is))) found.push(change);
      return found.map((c) => [c.kind, c.principalArn]);
    };
    // Told where the numbers differ, the comparison decodes both and finds the new reader.
    expect(
      await changes(store(old, gone, renumbered).item, store(now, added, renumbered).item),
    ).toEqual([["confidential-access-gained", added]]);
    // Not told, it took the equal bytes for the same reach.
    expect(await changes(yesterday.item, today.item)).toEqual([]);
  });
});

async function* one<T>(item: T) {
  yield item;
}

/** A bucket tagged confidential ("secret"), with the given reach, and the comparison it is in. */
const confidential = {
  arn: "arn:aws:s3:::data",
  type: "S3Bucket",
  service: "S3",
  name: "data",
  tags: { Confidentiality: "secret" },
  confidentiality: "secret",
};
const context = {
  previousExecutionId: "yesterday",
  executionId: "today",
  confidentialValues: new Set(["secret"]),
};
const confidentialResource = (reach: Uint8Array) =>
  encodeResource(
    confidential,
    JSON.stringify({ service: "S3", tags: confidential.tags }),
    reach,
    JSON.stringify({ service: "S3", tags: {}, grants: [], reach: [] }),
    new Map(),
  );
