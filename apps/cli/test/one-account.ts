import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { CollectionMetadata } from "@sightline/domain";
import type { AccountSnapshot } from "@sightline/engine";

// One account as its exported files hold it, and as the service's collection would hold it:
// alice reads the `reports` bucket and decrypts with the account's key (patterns that cover
// them), bob may assume any role of the account and so reaches the IAM admin role `admin`, and
// `partner` is open to another account. `logs` is listed without a policy.

export const ACCOUNT = "111122223333";
export const ADMIN = `arn:aws:iam::${ACCOUNT}:role/admin`;
export const PARTNER = `arn:aws:iam::${ACCOUNT}:role/partner`;
export const KEY = `arn:aws:kms:us-east-1:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;

const document = (...statements: object[]) =>
  encodeURIComponent(JSON.stringify({ Version: "2012-10-17", Statement: statements }));
const allow = (Action: string, Resource: string) => ({ Effect: "Allow", Action, Resource });
const trust = (AWS: string) =>
  document({ Effect: "Allow", Principal: { AWS }, Action: "sts:AssumeRole" });
const user = (name: string, statements: object[]) => ({
  UserName: name,
  UserId: `AIDA${name.toUpperCase()}`,
  Arn: `arn:aws:iam::${ACCOUNT}:user/${name}`,
  Path: "/",
  GroupList: [],
  AttachedManagedPolicies: [],
  UserPolicyList: [{ PolicyName: `${name}-inline`, PolicyDocument: document(...statements) }],
  Tags: [{ Key: "team", Value: "data" }],
});
const role = (arn: string, trusted: string, statements: object[], more: object = {}) => ({
  RoleName: arn.split("/").pop(),
  RoleId: `AROA${arn.split("/").pop()?.toUpperCase()}`,
  Arn: arn,
  Path: "/",
  AssumeRolePolicyDocument: trust(trusted),
  RolePolicyList: [{ PolicyName: "inline", PolicyDocument: document(...statements) }],
  AttachedManagedPolicies: [],
  Tags: [],
  ...more,
});

export const authorizationDetails = {
  UserDetailList: [
    user("alice", [
      allow("s3:GetObject", "arn:aws:s3:::reports/*"),
      allow("kms:Decrypt", `arn:aws:kms:*:${ACCOUNT}:key/*`),
    ]),
    user("bob", [allow("sts:AssumeRole", `arn:aws:iam::${ACCOUNT}:role/*`)]),
  ],
  GroupDetailList: [],
  RoleDetailList: [
    role(ADMIN, `arn:aws:iam::${ACCOUNT}:root`, [allow("iam:*", "*")], {
      Tags: [{ Key: "BusinessUnit", Value: "Platform" }],
      RoleLastUsed: { LastUsedDate: "2026-02-01T10:00:00Z", Region: "us-east-1" },
    }),
    role(PARTNER, "arn:aws:iam::444455556666:root", [allow("s3:GetObject", "arn:aws:s3:::*")]),
  ],
  Policies: [],
};

/** The `reports` bucket's policy: account 444455556666 reads its objects. */
export const REPORTS_POLICY = {
  Version: "2012-10-17",
  Statement: [
    {
      Effect: "Allow",
      Principal: { AWS: "444455556666" },
      Action: "s3:GetObject",
      Resource: "arn:aws:s3:::reports/*",
    },
  ],
};

export const resourcePolicies = {
  "arn:aws:s3:::reports": REPORTS_POLICY,
  [KEY]: {
    Version: "2012-10-17",
    Statement: [
      {
        Effect: "Allow",
        Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` },
        Action: "kms:*",
        Resource: "*",
      },
    ],
  },
};

export const buckets = ["reports", "logs"];

/** What the collector stores of the account: the engine's snapshot. */
export const snapshot: AccountSnapshot = {
  authorizationDetails,
  accountId: ACCOUNT,
  partition: "aws",
  resourcePolicies,
  buckets,
};

/**
 * The collection's metadata of the account, less what its files cannot hold (a credential
 * report, tags and aliases): what `sightline analyze` should report the same way.
 */
export const metadata: CollectionMetadata = {
  accountId: ACCOUNT,
  partition: "aws",
  callerArn: `arn:aws:iam::${ACCOUNT}:role/SightlineAuditor`,
  regions: ["us-east-1"],
  startedAt: "2026-03-04T07:14:00.000Z",
  finishedAt: "2026-03-04T07:14:30.000Z",
  roleLastUsed: { [ADMIN]: { lastUsedDate: "2026-02-01T10:00:00Z", region: "us-east-1" } },
  buckets: {
    "arn:aws:s3:::reports": { name: "reports", region: "us-east-1", tags: {} },
    "arn:aws:s3:::logs": { name: "logs", region: "us-east-1", tags: {} },
  },
  keys: {
    [KEY]: {
      keyId: "1234abcd-12ab-34cd-56ef-1234567890ab",
      region: "us-east-1",
      aliases: [],
      tags: {},
    },
  },
};

/** The account's files as `sightline analyze` reads them, in `dir`. */
export async function writeOneAccount(dir: string) {
  const files = {
    authorizationDetails: [path.join(dir, "gaad.json")],
    resourcePolicies: path.join(dir, "policies"),
    buckets: [path.join(dir, `${ACCOUNT}-buckets.json`)],
  };
  await mkdir(files.resourcePolicies, { recursive: true });
  await writeFile(files.authorizationDetails[0] as string, JSON.stringify(authorizationDetails));
  await writeFile(
    path.join(files.resourcePolicies, `${ACCOUNT}.json`),
    JSON.stringify(resourcePolicies),
  );
  await writeFile(files.buckets[0] as string, JSON.stringify(buckets));
  return files;
}
