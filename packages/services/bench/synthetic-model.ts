import type {
  FakeAccountModel,
  FakeBucket,
  FakeKey,
  FakeOrganization,
  FakeOrganizationPolicy,
  GaadEntry,
} from "@sightline/aws-fake";
// The engine's generator is bench code, not part of its package exports: imported by path.
import { ACCOUNT, generateAccount, SIZES } from "../../engine/bench/generate-account.ts";

export type SyntheticSize = keyof typeof SIZES;
export const SYNTHETIC_SIZES = Object.keys(SIZES) as SyntheticSize[];

export const ACCOUNT_ID = ACCOUNT;
export const AUDITOR_ROLE_ARN = `arn:aws:iam::${ACCOUNT}:role/SightlineAuditor`;
export const EXTERNAL_ID = "bench-4c1e";
/** The partner's secure inbox: a bucket of the fake and the key its objects are encrypted with. */
export const INBOX_BUCKET = "partner-inbox";
export const INBOX_KEY_ARN = `arn:aws:kms:us-east-1:${ACCOUNT}:key/9999abcd-12ab-34cd-56ef-1234567890ab`;

const ENVIRONMENTS = ["prod", "staging", "dev"];
const CONFIDENTIALITY = ["public", "internal", "confidential", "restricted"];

interface GeneratedOrganization {
  organizationId: string;
  serviceControlPolicies: { target: string; policies: { id: string; document: unknown }[] }[];
}

/** The generator's SCP levels as the fake's organization: the account directly under the root. */
function organizationOf(generated: GeneratedOrganization): FakeOrganization {
  const policies = new Map<string, FakeOrganizationPolicy>();
  for (const level of generated.serviceControlPolicies)
    for (const { id, document } of level.policies) {
      const known = policies.get(id);
      policies.set(id, {
        id,
        name: id.replace(/^p-/, ""),
        type: "SERVICE_CONTROL_POLICY",
        document,
        targets: [...(known?.targets ?? []), level.target],
      });
    }
  return {
    id: generated.organizationId,
    managementAccountId: "111111111111",
    rootId: "r-root",
    delegatedAdministrator: true,
    enabledPolicyTypes: ["SERVICE_CONTROL_POLICY"],
    parents: { [ACCOUNT]: "r-root" },
    policies: [...policies.values()],
  };
}

/**
 * The engine's seeded synthetic account (`packages/engine/bench`) as the fake AWS serves it:
 * GAAD in the AWS CLI's shape (paged by the fake, 1,000 entries a page), each bucket and key
 * policy on its bucket or key with tags and an alias, the SCPs in the organization, plus the
 * auditor role Sightline assumes and the partner's inbox bucket and key.
 */
export function syntheticAccountModel(size: SyntheticSize): FakeAccountModel {
  const snapshot = generateAccount(SIZES[size]);
  const buckets: FakeBucket[] = [];
  const keys: FakeKey[] = [];
  for (const [arn, policy] of Object.entries(snapshot.resourcePolicies ?? {})) {
    const i = buckets.length + keys.length;
    const environment = ENVIRONMENTS[i % ENVIRONMENTS.length] ?? "prod";
    if (arn.startsWith("arn:aws:s3:::"))
      buckets.push({
        name: arn.slice("arn:aws:s3:::".length),
        policy,
        tags: {
          Environment: environment,
          Confidentiality: CONFIDENTIALITY[i % CONFIDENTIALITY.length] ?? "internal",
          Owner: `team-${i % 7}`,
        },
      });
    else {
      const keyId = arn.slice(arn.indexOf(":key/") + ":key/".length);
      keys.push({ keyId, policy, aliases: [`alias/${keyId}`], tags: { Environment: environment } });
    }
  }
  buckets.push({ name: INBOX_BUCKET });
  keys.push({ keyId: INBOX_KEY_ARN.split("/")[1] ?? "", aliases: ["alias/partner-inbox"] });
  return {
    accountId: ACCOUNT,
    assumableRoles: [{ roleArn: AUDITOR_ROLE_ARN, externalId: EXTERNAL_ID }],
    authorizationDetails: snapshot.authorizationDetails as Record<string, GaadEntry[]>,
    buckets,
    keys,
    ...(snapshot.organization
      ? { organization: organizationOf(snapshot.organization as GeneratedOrganization) }
      : {}),
  };
}

/** Principals (users and roles) of a size, as the engine bench counts them. */
export function principalsOf(size: SyntheticSize): number {
  return SIZES[size].users + SIZES[size].roles;
}

/**
 * Changes 1% of an account's principals in place, as an administrator would: half of them
 * users that gain an inline policy granting S3 on everything, the other half roles that lose
 * their attached managed policies. Returns how many principals changed.
 */
export function changeOnePercentOf(authorizationDetails: unknown): number {
  const details = authorizationDetails as {
    UserDetailList: { UserPolicyList?: unknown[] }[];
    RoleDetailList: { AttachedManagedPolicies?: unknown[] }[];
  };
  const users = details.UserDetailList;
  const roles = details.RoleDetailList;
  const count = Math.round((users.length + roles.length) / 100);
  let changed = 0;
  for (let i = 0; i < count / 2 && i < users.length; i++, changed++) {
    const user = users[(i * 97) % users.length] as { UserPolicyList?: unknown[] };
    user.UserPolicyList = [
      ...(user.UserPolicyList ?? []),
      {
        PolicyName: "bench-s3-everything",
        PolicyDocument: {
          Version: "2012-10-17",
          Statement: [{ Effect: "Allow", Action: "s3:*", Resource: "*" }],
        },
      },
    ];
  }
  for (let i = 0; changed < count && i < roles.length; i++, changed++)
    (
      roles[(i * 89) % roles.length] as { AttachedManagedPolicies?: unknown[] }
    ).AttachedManagedPolicies = [];
  return changed;
}
