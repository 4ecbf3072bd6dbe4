import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { silentLogger } from "@sightline/logging";
import { describe, expect, it } from "vitest";
import { runSnapshotImport } from "../src/snapshot-import-command.ts";
import { parseSnapshotImportArgs } from "../src/snapshot-import-options.ts";
import { UsageError } from "../src/usage.ts";
import { ACCOUNT_A, accountA } from "./two-accounts.ts";

const url = "postgres://sightline@db.internal:5432/sightline";
const env = { DATABASE_URL: url };
const args = {
  partner: "P123456",
  customer: "acme-prod-01",
  account: "123456789012",
  "authorization-details": "gaad.json",
};
const argv = (values: Record<string, string>) =>
  Object.entries(values).flatMap(([option, value]) => [`--${option}`, value]);

describe("sightline snapshot import: arguments", () => {
  it("reads the identifiers, the files and the partition (default aws)", () => {
    expect(parseSnapshotImportArgs(argv(args), env)).toEqual({
      partnerId: "P123456",
      partnerCustomerId: "acme-prod-01",
      accountId: "123456789012",
      partition: "aws",
      authorizationDetails: "gaad.json",
      databaseUrl: url,
      dataDir: ".data",
    });
    const more = { ...args, "resource-policies": "policies", partition: "aws-us-gov" };
    expect(parseSnapshotImportArgs(argv(more), env)).toMatchObject({
      resourcePolicies: "policies",
      partition: "aws-us-gov",
    });
  });

  it.each([
    ["partner", "acme", "--partner must be 'P' followed by 6 digits, e.g. P123456; got 'acme'"],
    [
      "customer",
      "acme",
      "--customer must be 6 to 64 characters of letters, digits, '_', '-' and '.'; got 'acme'",
    ],
    ["account", "12345", "--account must be exactly 12 digits; got '12345'"],
    [
      "partition",
      "aws-cn",
      "--partition must be one of aws, aws-us-gov, aws-iso, aws-iso-b; got 'aws-cn'",
    ],
  ])("refuses --%s %s", (option, value, message) => {
    expect(() => parseSnapshotImportArgs(argv({ ...args, [option]: value }), env)).toThrow(
      new UsageError(message),
    );
  });

  it("requires every identifier and exactly one authorization details file", () => {
    const { account: _, ...withoutAccount } = args;
    expect(() => parseSnapshotImportArgs(argv(withoutAccount), env)).toThrow(
      new UsageError("--account is required"),
    );
    const twice = [...argv(args), "--authorization-details", "other.json"];
    expect(() => parseSnapshotImportArgs(twice, env)).toThrow(
      new UsageError("--authorization-details is given once: a snapshot is one account"),
    );
  });

  it("without DATABASE_URL, names the service's data directory (SIGHTLINE_DATA_DIR, or .data)", () => {
    const command = parseSnapshotImportArgs(argv(args), { SIGHTLINE_DATA_DIR: "/srv/sightline" });
    expect(command).toMatchObject({ dataDir: "/srv/sightline" });
    expect(command).not.toHaveProperty("databaseUrl");
    expect(parseSnapshotImportArgs(argv(args), {})).toMatchObject({ dataDir: ".data" });
  });
});

describe("sightline snapshot import: the file", () => {
  // Checked before the database is opened: nothing listens on this port.
  const command = {
    partnerId: "P123456",
    partnerCustomerId: "acme-prod-01",
    accountId: ACCOUNT_A,
    partition: "aws" as const,
    databaseUrl: "postgres://nobody@127.0.0.1:1/none",
    dataDir: ".data",
  };
  const write = async (content: unknown) => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), "sightline-import-")), "gaad.json");
    await writeFile(file, JSON.stringify(content));
    return file;
  };

  it("refuses an account other than --account, or another partition", async () => {
    const file = await write(accountA);
    await expect(
      runSnapshotImport(
        { ...command, authorizationDetails: file, accountId: "444444444444" },
        silentLogger,
      ),
    ).rejects.toThrow(`${file} describes account ${ACCOUNT_A}, not --account 444444444444`);
    await expect(
      runSnapshotImport(
        { ...command, authorizationDetails: file, partition: "aws-us-gov" },
        silentLogger,
      ),
    ).rejects.toThrow(`${file} is in partition aws, not --partition aws-us-gov`);
  });

  it("refuses what is not authorization details", async () => {
    const file = await write([accountA]);
    await expect(
      runSnapshotImport({ ...command, authorizationDetails: file }, silentLogger),
    ).rejects.toThrow(
      `${file}: expected the output of aws iam get-account-authorization-details, a JSON object`,
    );
  });
});
