import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { AccountSnapshot, OrganizationInput } from "@sightline/engine";

async function readJson(file: string): Promise<{ text: string; value: unknown }> {
  const text = await readFile(file, "utf8");
  try {
    return { text, value: JSON.parse(text) };
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${(error as Error).message})`);
  }
}

export interface ResourcePolicyFile {
  /** From a file named `<12-digit account ID>[-anything].json`: the account owning the resources. */
  accountId?: string;
  policies: Record<string, unknown>;
}

/**
 * Resource policies from a directory: every `*.json` file is an object whose keys are resource
 * ARNs (or bucket names) and whose values are policy documents. A file named after an account
 * ID belongs to that account's snapshot (S3 ARNs carry no account), others to the first one.
 */
export async function loadResourcePolicies(dir: string): Promise<ResourcePolicyFile[]> {
  const files = (await readdir(dir)).filter((name) => name.endsWith(".json")).sort();
  const result: ResourcePolicyFile[] = [];
  for (const name of files) {
    const { value } = await readJson(path.join(dir, name));
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      throw new Error(
        `${path.join(dir, name)}: expected an object of resource ARN → policy document`,
      );
    }
    const accountId = /^(\d{12})(?:[-_.].*)?\.json$/.exec(name)?.[1];
    result.push({
      ...(accountId ? { accountId } : {}),
      policies: value as Record<string, unknown>,
    });
  }
  return result;
}

export interface BucketListFile {
  /** From a file named `<12-digit account ID>[-anything].json`: the account owning the buckets. */
  accountId?: string;
  buckets: string[];
}

/**
 * An account's S3 buckets: a JSON list of bucket names or ARNs, or the output of
 * `aws s3api list-buckets` (`{ "Buckets": [{ "Name": ... }] }`). Named like a resource policy file.
 */
export async function loadBucketList(file: string): Promise<BucketListFile> {
  const { value } = await readJson(file);
  const entries = Array.isArray(value)
    ? value
    : value && typeof value === "object" && Array.isArray((value as { Buckets?: unknown }).Buckets)
      ? (value as { Buckets: unknown[] }).Buckets.map((b) =>
          b && typeof b === "object" ? (b as { Name?: unknown }).Name : b,
        )
      : undefined;
  if (!entries || entries.some((e) => typeof e !== "string"))
    throw new Error(
      `${file}: expected a list of bucket names or ARNs, or { "Buckets": [{ "Name": ... }] }`,
    );
  const accountId = /^(\d{12})(?:[-_.].*)?\.json$/.exec(path.basename(file))?.[1];
  return { ...(accountId ? { accountId } : {}), buckets: entries as string[] };
}

export interface SnapshotFiles {
  authorizationDetails: readonly string[];
  resourcePolicies?: string;
  /** Bucket list files: an S3 ARN names no account, these say which account owns a bucket. */
  buckets?: readonly string[];
  organization?: string;
}

/** Reads the files named on the command line into the engine's snapshots. */
export async function loadSnapshots(files: SnapshotFiles): Promise<AccountSnapshot[]> {
  const policyFiles = files.resourcePolicies
    ? await loadResourcePolicies(files.resourcePolicies)
    : [];
  const organization = files.organization
    ? ((await readJson(files.organization)).value as OrganizationInput)
    : undefined;
  const bucketFiles = await Promise.all((files.buckets ?? []).map(loadBucketList));
  const loaded = await Promise.all(files.authorizationDetails.map(readJson));
  const accounts = loaded.map(({ text }) => /:iam::(\d{12}):/.exec(text)?.[1]);
  return loaded.map(({ value }, i) => {
    const mine = policyFiles.filter((f) =>
      f.accountId && accounts.includes(f.accountId) ? f.accountId === accounts[i] : i === 0,
    );
    const resourcePolicies = Object.assign({}, ...mine.map((f) => f.policies)) as Record<
      string,
      unknown
    >;
    const buckets = bucketFiles
      .filter((f) =>
        f.accountId && accounts.includes(f.accountId) ? f.accountId === accounts[i] : i === 0,
      )
      .flatMap((f) => f.buckets);
    return {
      authorizationDetails: value,
      ...(mine.length > 0 ? { resourcePolicies } : {}),
      ...(buckets.length > 0 ? { buckets } : {}),
      ...(organization ? { organization } : {}),
    };
  });
}
