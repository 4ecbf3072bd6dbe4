import { accountOfArn, parseArn } from "../arn/parse-arn.ts";
import { PARTITIONS, type Partition } from "../arn/partitions.ts";
import { type Issue, issueAt } from "../issues.ts";
import { parsePolicyDocument } from "../policy/parse-policy-document.ts";
import type { Policy, PolicyType } from "../policy/policy-types.ts";
import type {
  AccountData,
  AccountModel,
  PrincipalRecord,
  ResourcePolicyRecord,
} from "./account-model.ts";
import type { AccountSnapshot, OrganizationLevelInput } from "./account-snapshot.ts";
import { parseAuthorizationDetails } from "./parse-authorization-details.ts";
import { isObject } from "./read-fields.ts";
import type { AuthorizationDetails, IamGroup, IamRole, IamUser } from "./snapshot-types.ts";

/**
 * Builds the model `authorize` and `analyzeAccount` work on from one or several account
 * snapshots (several for cross-account analysis). Never throws on bad input: every
 * problem is in `issues`, prefixed with `accounts[i].` when several snapshots are given.
 */
export function createAccountModel(
  input: AccountSnapshot | readonly AccountSnapshot[],
): AccountModel {
  const snapshots = Array.isArray(input) ? input : [input as AccountSnapshot];
  const issues: Issue[] = [];
  const accounts = new Map<string, AccountData>();
  const principals = new Map<string, PrincipalRecord>();
  const resourcePolicies = new Map<string, ResourcePolicyRecord>();
  const bucketOwners = new Map<string, string>();
  const awsManagedKeys = new Set<string>();
  const unreadableKeyPolicies = new Set<string>();
  const parsed = snapshots.flatMap((snapshot, i) => {
    const prefix = snapshots.length > 1 ? `accounts[${i}].` : "";
    if (!isObject(snapshot)) {
      issues.push(
        issueAt(
          snapshots.length > 1 ? `accounts[${i}]` : "$",
          "snapshot must be an object with authorizationDetails",
        ),
      );
      return [];
    }
    const result = parseAuthorizationDetails(snapshot.authorizationDetails);
    issues.push(...result.issues.map((issue) => ({ ...issue, path: prefix + issue.path })));
    return [{ snapshot: snapshot as unknown as AccountSnapshot, details: result.value, prefix }];
  });
  const awsManaged = collectAwsManagedPolicies(parsed.map((p) => p.details));
  for (const { snapshot, details, prefix } of parsed) {
    const accountId = snapshot.accountId ?? details.accountId;
    if (!accountId) {
      issues.push(
        issueAt(
          `${prefix}accountId`,
          "cannot tell the account: give accountId or at least one principal",
        ),
      );
      continue;
    }
    const partition = choosePartition(snapshot, details, `${prefix}partition`, issues);
    const org = snapshot.organization;
    const lookup = (arn: string) => details.managedPolicies.get(arn) ?? awsManaged.get(arn);
    const viaGroup = groupPolicyCopies();
    const users = details.users.map((u) => toPrincipal(u, partition, details, lookup, viaGroup));
    const roles = details.roles.map((r) => toPrincipal(r, partition, details, lookup, viaGroup));
    for (const p of [...users, ...roles]) principals.set(p.arn, p);
    for (const role of details.roles)
      resourcePolicies.set(role.arn, {
        resourceArn: role.arn,
        accountId: role.accountId,
        policy: role.trustPolicy,
      });
    const resourceInputs = snapshot.resourcePolicies ?? {};
    if (!isObject(resourceInputs))
      issues.push(issueAt(`${prefix}resourcePolicies`, "must be an object keyed by resource ARN"));
    for (const [key, document] of Object.entries(isObject(resourceInputs) ? resourceInputs : {})) {
      const record = toResourcePolicy(
        key,
        document,
        accountId,
        partition,
        `${prefix}resourcePolicies[${JSON.stringify(key)}]`,
        issues,
      );
      resourcePolicies.set(record.resourceArn, record);
      if (isBucketArn(record.resourceArn)) bucketOwners.set(record.resourceArn, accountId);
    }
    for (const arn of readBuckets(snapshot.buckets, partition, `${prefix}buckets`, issues)) {
      const other = bucketOwners.get(arn);
      if (other && other !== accountId)
        issues.push(
          issueAt(`${prefix}buckets`, `${arn} is also given to account ${other}`, "warning"),
        );
      bucketOwners.set(arn, accountId);
    }
    for (const arn of readKeyArns(
      snapshot.awsManagedKeys,
      accountId,
      `${prefix}awsManagedKeys`,
      issues,
    ))
      awsManagedKeys.add(arn);
    const unreadPath = `${prefix}unreadableKeyPolicies`;
    const unread = snapshot.unreadableKeyPolicies;
    for (const arn of readKeyArns(unread, accountId, unreadPath, issues)) {
      if (resourcePolicies.has(arn))
        issues.push(
          issueAt(
            `${unreadPath}[${(unread ?? []).indexOf(arn)}]`,
            `${arn} has a key policy in resourcePolicies: that policy decides, not an unread one`,
            "warning",
          ),
        );
      else unreadableKeyPolicies.add(arn);
    }
    accounts.set(accountId, {
      accountId,
      partition,
      isManagementAccount: org?.isManagementAccount ?? false,
      organizationId: org?.organizationId,
      serviceControlPolicies: readLevels(
        org?.serviceControlPolicies,
        "scp",
        `${prefix}organization.serviceControlPolicies`,
        issues,
      ),
      resourceControlPolicies: readLevels(
        org?.resourceControlPolicies,
        "rcp",
        `${prefix}organization.resourceControlPolicies`,
        issues,
      ),
      users,
      roles,
      groups: details.groups,
      managedPolicies: details.managedPolicies,
    });
  }
  return {
    accounts,
    principals,
    resourcePolicies,
    bucketOwners,
    awsManagedKeys,
    unreadableKeyPolicies,
    issues,
  };
}

const isBucketArn = (arn: string) => /^arn:[^:]+:s3:::[^/]+$/.test(arn);

/** The snapshot's bucket list as bucket ARNs (a bare name becomes `arn:<partition>:s3:::name`). */
function readBuckets(input: unknown, partition: string, path: string, issues: Issue[]): string[] {
  if (input === undefined) return [];
  if (!Array.isArray(input)) {
    issues.push(issueAt(path, "must be a list of bucket names or ARNs"));
    return [];
  }
  const arns: string[] = [];
  input.forEach((entry, i) => {
    const arn =
      typeof entry === "string" && !entry.startsWith("arn:")
        ? `arn:${partition}:s3:::${entry}`
        : entry;
    if (typeof arn === "string" && isBucketArn(arn)) arns.push(arn);
    else issues.push(issueAt(`${path}[${i}]`, "must be a bucket name or an S3 bucket ARN"));
  });
  return arns;
}

/** KMS key ARNs of the account (`arn:<partition>:kms:<region>:<account>:key/<key ID>`). */
function readKeyArns(input: unknown, accountId: string, path: string, issues: Issue[]): string[] {
  if (input === undefined) return [];
  if (!Array.isArray(input)) {
    issues.push(issueAt(path, "must be a list of KMS key ARNs"));
    return [];
  }
  const arns: string[] = [];
  input.forEach((entry, i) => {
    const parsed = typeof entry === "string" ? parseArn(entry) : undefined;
    if (parsed?.service !== "kms" || !parsed.region || !/^key\/[^/]+$/.test(parsed.resource))
      issues.push(
        issueAt(`${path}[${i}]`, "must be a KMS key ARN (arn:…:kms:<region>:<account>:key/<id>)"),
      );
    else if (parsed.accountId !== accountId)
      issues.push(issueAt(`${path}[${i}]`, `must be a key of account ${accountId}`));
    else arns.push(entry as string);
  });
  return arns;
}

const groupIndex = new WeakMap<AuthorizationDetails, Map<string, IamGroup>>();

function groupsByName(details: AuthorizationDetails): Map<string, IamGroup> {
  let map = groupIndex.get(details);
  if (!map) {
    map = new Map(details.groups.map((g) => [g.name, g]));
    groupIndex.set(details, map);
  }
  return map;
}

function collectAwsManagedPolicies(all: readonly AuthorizationDetails[]): Map<string, Policy> {
  const found = new Map<string, Policy>();
  for (const details of all) {
    for (const [arn, policy] of details.managedPolicies)
      if (parseArn(arn)?.accountId === "aws") found.set(arn, policy);
  }
  return found;
}

function choosePartition(
  snapshot: AccountSnapshot,
  details: AuthorizationDetails,
  path: string,
  issues: Issue[],
): Partition {
  if (snapshot.partition !== undefined) {
    if (PARTITIONS.includes(snapshot.partition)) return snapshot.partition;
    issues.push(issueAt(path, `must be one of ${PARTITIONS.join(", ")}`));
  }
  const first = [...details.users, ...details.roles][0];
  const fromArn = first && parseArn(first.arn)?.partition;
  return PARTITIONS.find((p) => p === fromArn) ?? "aws";
}

/**
 * A group's policy as its members have it (`attachedVia` the group): one object per group
 * and policy, shared by every member, so caches keyed by policy serve them all.
 */
function groupPolicyCopies(): (policy: Policy, groupArn: string) => Policy {
  const copies = new WeakMap<Policy, Map<string, Policy>>();
  return (policy, groupArn) => {
    let byGroup = copies.get(policy);
    if (!byGroup) {
      byGroup = new Map();
      copies.set(policy, byGroup);
    }
    let copy = byGroup.get(groupArn);
    if (!copy) {
      copy = { ...policy, attachedVia: groupArn };
      byGroup.set(groupArn, copy);
    }
    return copy;
  };
}

function toPrincipal(
  source: IamUser | IamRole,
  partition: Partition,
  details: AuthorizationDetails,
  lookup: (arn: string) => Policy | undefined,
  viaGroup: (policy: Policy, groupArn: string) => Policy,
): PrincipalRecord {
  const policies: Policy[] = [...source.inlinePolicies];
  for (const arn of source.managedPolicyArns) {
    const policy = lookup(arn);
    if (policy) policies.push(policy);
  }
  const groupArns: string[] = [];
  if (source.kind === "user") {
    // A user is in a group once, however often a snapshot lists it.
    for (const name of new Set(source.groupNames)) {
      const group = groupsByName(details).get(name);
      if (!group) continue;
      groupArns.push(group.arn);
      for (const p of group.inlinePolicies) policies.push(viaGroup(p, group.arn));
      for (const arn of group.managedPolicyArns) {
        const policy = lookup(arn);
        if (policy) policies.push(viaGroup(policy, group.arn));
      }
    }
  }
  const boundary = source.permissionsBoundaryArn
    ? lookup(source.permissionsBoundaryArn)
    : undefined;
  const missingBoundary: Policy | undefined = source.permissionsBoundaryArn
    ? {
        id: source.permissionsBoundaryArn,
        name: "missing boundary",
        type: "permissions-boundary",
        statements: [],
      }
    : undefined;
  const permissionsBoundary = boundary
    ? { ...boundary, type: "permissions-boundary" as const }
    : missingBoundary;
  return {
    kind: source.kind,
    arn: source.arn,
    name: source.name,
    id: source.id,
    path: source.path,
    accountId: source.accountId,
    partition,
    tags: source.tags,
    identityPolicies: policies,
    ...(permissionsBoundary && { permissionsBoundary }),
    groupArns,
    serviceLinked: source.kind === "role" && source.path.startsWith("/aws-service-role/"),
    source,
  };
}

function toResourcePolicy(
  key: string,
  document: unknown,
  accountId: string,
  partition: Partition,
  path: string,
  issues: Issue[],
): ResourcePolicyRecord {
  const resourceArn = key.startsWith("arn:") ? key : `arn:${partition}:s3:::${key}`;
  const service = parseArn(resourceArn)?.service;
  const type: PolicyType =
    service === "kms"
      ? "kms-key"
      : service === "iam" && resourceArn.includes(":role/")
        ? "role-trust"
        : "resource";
  const parsed = parsePolicyDocument(document, path);
  issues.push(...parsed.issues);
  return {
    resourceArn,
    accountId: accountOfArn(resourceArn) ?? accountId,
    policy: {
      id: resourceArn,
      name: `${type} policy of ${resourceArn}`,
      type,
      statements: parsed.statements,
    },
  };
}

function readLevels(
  levels: readonly OrganizationLevelInput[] | undefined,
  type: "scp" | "rcp",
  path: string,
  issues: Issue[],
): Policy[][] {
  if (levels === undefined) return [];
  // Input often comes straight from JSON files: check shapes rather than trust the types.
  if (!Array.isArray(levels)) {
    issues.push(issueAt(path, "must be an array of { target, policies }"));
    return [];
  }
  return levels.map((level, i) => {
    if (!isObject(level) || !Array.isArray(level.policies)) {
      issues.push(
        issueAt(`${path}[${i}]`, "must be { target, policies: [...] }; this level allows nothing"),
      );
      return [];
    }
    return level.policies.map((input, j) => {
      const where = `${path}[${i}].policies[${j}]`;
      const document = isObject(input) ? input.document : undefined;
      const parsed = parsePolicyDocument(document, `${where}.document`);
      issues.push(...parsed.issues);
      const id =
        isObject(input) && typeof input.id === "string"
          ? input.id
          : `${String(level.target)}#${type}#${j}`;
      const name = isObject(input) && typeof input.name === "string" ? input.name : id;
      return { id, name, type, statements: parsed.statements };
    });
  });
}
