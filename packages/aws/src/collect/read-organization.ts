import {
  DescribeOrganizationCommand,
  DescribePolicyCommand,
  ListParentsCommand,
  type OrganizationsClient,
  paginateListPoliciesForTarget,
  paginateListRoots,
} from "@aws-sdk/client-organizations";
import type { OrganizationInput, OrganizationLevelInput, PolicyInput } from "@sightline/engine";
import { type CollectContext, type ReadAttempt, readOrWarn } from "./collect-context.ts";
import { parseJsonDocument } from "./plain-json.ts";

type OrganizationPolicyType = "SERVICE_CONTROL_POLICY" | "RESOURCE_CONTROL_POLICY";
const SHORT_NAMES: Record<OrganizationPolicyType, string> = {
  SERVICE_CONTROL_POLICY: "SCPs",
  RESOURCE_CONTROL_POLICY: "RCPs",
};

/**
 * The account's organization and the SCPs and RCPs of every level of its path, root first.
 * Only the management account or a delegated administrator may read them: otherwise the
 * analysis runs without them, with a warning that they were not applied. A policy type not
 * enabled at the root applies to nobody, so it is left out (the engine would deny all).
 */
export async function readOrganization(
  ctx: CollectContext,
): Promise<OrganizationInput | undefined> {
  const org = ctx.clients.organizations;
  const attempt = (action: string, type: OrganizationPolicyType): ReadAttempt => ({
    action,
    target: `the organization of account ${ctx.accountId}`,
    kind: "scps-not-applied",
    absentCodes: ["AWSOrganizationsNotInUseException"],
    consequence: `${SHORT_NAMES[type]} were not applied (only the management account or a delegated administrator of AWS Organizations may read them)`,
  });
  const scpAttempt = (action: string) => attempt(action, "SERVICE_CONTROL_POLICY");
  const described = await readOrWarn(
    ctx,
    scpAttempt("organizations:DescribeOrganization"),
    async () => (await org.send(new DescribeOrganizationCommand({}))).Organization,
  );
  if (!described) return undefined;
  const organization: OrganizationInput = {
    ...(described.Id ? { organizationId: described.Id } : {}),
    isManagementAccount: described.MasterAccountId === ctx.accountId,
  };
  const enabled = await readOrWarn(ctx, scpAttempt("organizations:ListRoots"), () =>
    enabledTypes(org),
  );
  if (!enabled) return organization;
  const path = await readOrWarn(ctx, scpAttempt("organizations:ListParents"), () => readPath(ctx));
  if (!path) return organization;
  const cache = new Map<string, Promise<PolicyInput>>();
  const levelsOf = (type: OrganizationPolicyType) =>
    enabled.has(type)
      ? readLevels(path, (action, read) => readOrWarn(ctx, attempt(action, type), read), {
          org,
          type,
          cache,
        })
      : undefined;
  const serviceControlPolicies = await levelsOf("SERVICE_CONTROL_POLICY");
  const resourceControlPolicies = await levelsOf("RESOURCE_CONTROL_POLICY");
  return {
    ...organization,
    ...(serviceControlPolicies ? { serviceControlPolicies } : {}),
    ...(resourceControlPolicies ? { resourceControlPolicies } : {}),
  };
}

type Read = <T>(action: string, read: () => Promise<T>) => Promise<T | undefined>;

/** Every level's policies of one type; undefined as soon as one read is refused. */
async function readLevels(
  path: readonly string[],
  read: Read,
  of: {
    org: OrganizationsClient;
    type: OrganizationPolicyType;
    cache: Map<string, Promise<PolicyInput>>;
  },
): Promise<OrganizationLevelInput[] | undefined> {
  const levels: OrganizationLevelInput[] = [];
  for (const target of path) {
    const ids = await read("organizations:ListPoliciesForTarget", () =>
      listPolicyIds(of.org, target, of.type),
    );
    if (!ids) return undefined;
    const policies = await read("organizations:DescribePolicy", () =>
      Promise.all(ids.map((id) => describePolicy(of.org, id, of.cache))),
    );
    if (!policies) return undefined;
    levels.push({ target, policies });
  }
  return levels;
}

async function enabledTypes(org: OrganizationsClient): Promise<Set<string>> {
  const types = new Set<string>();
  for await (const page of paginateListRoots({ client: org }, {})) {
    for (const root of page.Roots ?? []) {
      for (const type of root.PolicyTypes ?? []) {
        if (type.Status === "ENABLED" && type.Type) types.add(type.Type);
      }
    }
  }
  return types;
}

/** The account, its OUs and the root: root first, account last. */
async function readPath(ctx: CollectContext): Promise<string[]> {
  const path = [ctx.accountId];
  let child = ctx.accountId;
  for (;;) {
    const answer = await ctx.clients.organizations.send(new ListParentsCommand({ ChildId: child }));
    const parent = answer.Parents?.[0];
    if (!parent?.Id) return path;
    path.unshift(parent.Id);
    if (parent.Type === "ROOT") return path;
    child = parent.Id;
  }
}

async function listPolicyIds(
  org: OrganizationsClient,
  target: string,
  type: OrganizationPolicyType,
): Promise<string[]> {
  const ids: string[] = [];
  const pages = paginateListPoliciesForTarget({ client: org }, { TargetId: target, Filter: type });
  for await (const page of pages) {
    for (const policy of page.Policies ?? []) if (policy.Id) ids.push(policy.Id);
  }
  return ids;
}

/** A policy attached at several levels is described once. */
function describePolicy(
  org: OrganizationsClient,
  id: string,
  cache: Map<string, Promise<PolicyInput>>,
): Promise<PolicyInput> {
  let policy = cache.get(id);
  if (!policy) {
    policy = org.send(new DescribePolicyCommand({ PolicyId: id })).then((answer) => {
      const summary = answer.Policy?.PolicySummary;
      return {
        id,
        ...(summary?.Name ? { name: summary.Name } : {}),
        document: parseJsonDocument(answer.Policy?.Content ?? ""),
      };
    });
    cache.set(id, policy);
  }
  return policy;
}
