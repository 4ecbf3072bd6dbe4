import { gzipSync } from "node:zlib";
import { AppError, type ResourceAccessPathsRequest } from "@sightline/domain";
import { afterAll, describe, expect, it } from "vitest";
// The engine's generator is bench code, not part of its package exports: imported by path.
import { generateOrganisation, ORGANISATIONS } from "../../engine/bench/generate-organisation.ts";
import { AccessPathThreads, inThreadAccessPaths } from "../src/paths/access-path-threads.ts";

/** A seeded organisation's snapshots as stored: gzip-compressed collections. */
function stored(size: { name: string; accounts: number; roles: number }): Buffer[] {
  return generateOrganisation(size).map((snapshot) =>
    gzipSync(JSON.stringify({ snapshot, metadata: {}, warnings: [] })),
  );
}

const small = stored({ name: "small", accounts: 4, roles: 200 });
const request = (resourceIds: string[], maxAccessPathNodes = 3): ResourceAccessPathsRequest => ({
  resourceIds,
  principalAccessCapabilities: ["use-resource"],
  service: "STS",
  accessCapabilityOperator: "OR",
  maxAccessPathNodes,
});
const roleArn = (account: number, role: number) =>
  `arn:aws:iam::${100_000_000_000 + account * 7919}:role/role-${role}`;
const threadsToClose: AccessPathThreads[] = [];
afterAll(() => Promise.all(threadsToClose.map((t) => t.close())));
function threads(options: ConstructorParameters<typeof AccessPathThreads>[0] = {}) {
  const created = new AccessPathThreads(options);
  threadsToClose.push(created);
  return created;
}

describe("access-path threads", () => {
  it("answer as the calling thread does, reading a key's snapshots once", async () => {
    const paths = threads();
    let reads = 0;
    const snapshots = async () => {
      reads++;
      return small.map((b) => Buffer.from(b));
    };
    const asked = request([roleArn(0, 1), roleArn(1, 60), roleArn(3, 199)]);
    const answer = await paths.answer("customer-1|e1", asked, snapshots);
    expect(await paths.answer("customer-1|e1", asked, snapshots)).toEqual(answer);
    expect(reads).toBe(1);
    const baseline = await inThreadAccessPaths().answer("customer-1|e1", asked, async () => small);
    expect(answer).toEqual(baseline);
    expect(
      Object.values(answer.resourceAccessPaths).some((paths) => paths.accessPaths.length > 0),
    ).toBe(true);
  });

  it("pass the engine's and the reader's errors on as they were thrown", async () => {
    const paths = threads();
    // Outside the contract's limits (the API's validation stops it before): the engine's RangeError.
    const outside = request([roleArn(0, 1)], 0);
    const inThread = await inThreadAccessPaths()
      .answer("customer-2|e1", outside, async () => small)
      .catch((e: unknown) => e);
    const fromThread = await paths
      .answer("customer-2|e1", outside, async () => small)
      .catch((e: unknown) => e);
    expect(inThread).toBeInstanceOf(RangeError);
    expect(fromThread).toBeInstanceOf(RangeError);
    expect((fromThread as Error).message).toBe((inThread as Error).message);
    const conflict = new AppError("CONFLICT", "not analysed yet");
    const failed = await paths
      .answer("customer-3|e1", request([roleArn(0, 1)]), () => Promise.reject(conflict))
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(AppError);
    expect(failed).toMatchObject({ code: "CONFLICT", message: "not analysed yet" });
    // A failed build is not kept: the next request reads the snapshots again.
    const answered = await paths.answer(
      "customer-3|e1",
      request([roleArn(0, 1)]),
      async () => small,
    );
    expect(answered.resourceAccessPaths[roleArn(0, 1)]).toBeDefined();
  });

  it("fail what a crashed thread held as retryable, and start another", async () => {
    // A heap too small for the large organisation: the thread ends as if it had crashed.
    const paths = threads({ resourceLimits: { maxOldGenerationSizeMb: 48 } });
    await paths.answer("small|e1", request([roleArn(0, 1)]), async () => small);
    const [first] = paths.threadIds;
    const large = stored(ORGANISATIONS.org10k);
    const crashed = await paths
      .answer("large|e1", request([roleArn(0, 1)]), async () => large)
      .catch((e: unknown) => e);
    expect(crashed).toBeInstanceOf(AppError);
    expect(crashed).toMatchObject({ code: "UNAVAILABLE", retryable: true });
    expect((crashed as Error).message).toContain("ask again");
    const again = await paths.answer("small|e1", request([roleArn(0, 1)]), async () => small);
    expect(again.resourceAccessPaths[roleArn(0, 1)]).toBeDefined();
    expect(paths.threadIds).toHaveLength(1);
    expect(paths.threadIds[0]).not.toBe(first);
  });

  it("fail pending requests as unavailable when closed, and take no more", async () => {
    const paths = new AccessPathThreads();
    let handed!: () => void;
    const reading = new Promise<void>((resolve) => {
      handed = resolve;
    });
    const pending = paths
      .answer("customer-4|e1", request([roleArn(0, 1)]), () => {
        handed();
        return new Promise(() => {});
      })
      .catch((e: unknown) => e);
    await reading;
    await paths.close();
    expect(await pending).toMatchObject({ code: "UNAVAILABLE", retryable: true });
    await expect(
      paths.answer("customer-4|e1", request([roleArn(0, 1)]), async () => small),
    ).rejects.toMatchObject({ code: "UNAVAILABLE" });
  });
});
