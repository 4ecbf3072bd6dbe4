import { compileGlob, matchCompiledGlob } from "../policy/glob.ts";

/**
 * Resources that AWS does not let customers change, whatever their policies allow. Each
 * rule names a resource pattern (case-sensitive, `*` spans any characters) and the
 * actions AWS refuses on it. `authorize` answers `implicit-deny` for them, even for the
 * account root; the analysis removes them from every action set on a matching resource.
 */
export interface ProtectedResourceRule {
  /** What the resources are, for the explanation. */
  what: string;
  /** The AWS documentation page (and guide) that says so. */
  source: string;
  resource: string;
  /** Lower-case `service:action` names. */
  actions: readonly string[];
  /**
   * The rule covers only the resources the snapshot lists as such (AWS managed KMS keys:
   * a key ARN does not say who manages the key), among those `resource` matches.
   */
  listedOnly?: "awsManagedKeys";
}

const ROLE_CHANGES = [
  "iam:putrolepolicy",
  "iam:deleterolepolicy",
  "iam:attachrolepolicy",
  "iam:detachrolepolicy",
  "iam:updateassumerolepolicy",
  "iam:putrolepermissionsboundary",
  "iam:deleterolepermissionsboundary",
  "iam:deleterole",
];

export const AWS_PROTECTED_RESOURCES: readonly ProtectedResourceRule[] = [
  {
    what: "AWS managed policies",
    source:
      "IAM User Guide, 'AWS managed policies': you cannot change the permissions defined in AWS managed policies; AWS updates them; IAM API Reference, 'CreatePolicy': it creates a managed policy in your own account, so no customer creates one under the aws account",
    resource: "arn:*:iam::aws:policy/*",
    actions: [
      "iam:createpolicy",
      "iam:createpolicyversion",
      "iam:deletepolicy",
      "iam:deletepolicyversion",
      "iam:setdefaultpolicyversion",
      "iam:tagpolicy",
      "iam:untagpolicy",
    ],
  },
  {
    // iam:DeleteServiceLinkedRole, UpdateRole and UpdateRoleDescription (the description)
    // stay allowed ('Update a service-linked role', 'Delete a service-linked role'), and
    // so do iam:CreateServiceLinkedRole and iam:PassRole: some services have customers pass
    // their service-linked role (Amazon EC2 Auto Scaling User Guide, 'Service-linked roles
    // for Amazon EC2 Auto Scaling', custom-suffix roles).
    what: "service-linked roles",
    source:
      "IAM User Guide, 'Using service-linked roles' and IAM API Reference, 'UnmodifiableEntity': service-linked roles are protected AWS resources; only the service that depends on the role can modify or delete it",
    resource: "arn:*:iam::*:role/aws-service-role/*",
    actions: ROLE_CHANGES,
  },
  {
    // iam:PassRole stays governed by policies: no AWS documentation refuses it here.
    what: "IAM Identity Center reserved roles",
    source:
      "IAM Identity Center User Guide, 'IAM Identity Center created roles' (roles under /aws-reserved/sso.amazonaws.com/): they are created and changed only through IAM Identity Center permission sets, not in IAM; and they are not service-linked roles (IAM User Guide, 'Using service-linked roles': those are under /aws-service-role/), so iam:CreateServiceLinkedRole and iam:DeleteServiceLinkedRole cannot name them",
    resource: "arn:*:iam::*:role/aws-reserved/sso.amazonaws.com/*",
    actions: [
      ...ROLE_CHANGES,
      "iam:createrole",
      "iam:createservicelinkedrole",
      "iam:deleteservicelinkedrole",
      "iam:updaterole",
      "iam:updateroledescription",
      "iam:tagrole",
      "iam:untagrole",
    ],
  },
  {
    what: "aliases of AWS managed KMS keys (alias/aws/…)",
    source:
      "AWS KMS Developer Guide, 'Aliases in AWS KMS': alias names that begin with alias/aws/ are reserved for AWS managed keys; you cannot create, update or delete them",
    resource: "arn:*:kms:*:*:alias/aws/*",
    actions: ["kms:createalias", "kms:deletealias", "kms:updatealias"],
  },
  {
    // Only what the guide names; use through the owning service (Encrypt, CreateGrant, …)
    // is governed by the key policy AWS writes, not refused here.
    what: "AWS managed KMS keys",
    source:
      "AWS KMS Developer Guide, 'Editing keys': you cannot edit any properties of AWS managed keys (description, key policy, tags, enabled state, automatic rotation), and 'Schedule key deletion': you cannot schedule the deletion of AWS managed keys",
    resource: "arn:*:kms:*:*:key/*",
    listedOnly: "awsManagedKeys",
    actions: [
      "kms:updatekeydescription",
      "kms:putkeypolicy",
      "kms:tagresource",
      "kms:untagresource",
      "kms:enablekey",
      "kms:disablekey",
      "kms:enablekeyrotation",
      "kms:disablekeyrotation",
      "kms:schedulekeydeletion",
    ],
  },
];

/** What the snapshot says about resources whose ARN does not tell (see `listedOnly`). */
export interface ProtectedListings {
  awsManagedKeys?: ReadonlySet<string>;
}

const COMPILED = AWS_PROTECTED_RESOURCES.map((rule) => ({
  rule,
  glob: compileGlob(rule.resource),
  actions: new Set(rule.actions),
}));

/** Service prefixes of the refused actions: only these need checking. */
export const PROTECTED_PREFIXES: ReadonlySet<string> = new Set(
  AWS_PROTECTED_RESOURCES.flatMap((r) => r.actions.map((a) => a.slice(0, a.indexOf(":")))),
);

const covers = (
  c: (typeof COMPILED)[number],
  resource: string,
  listings: ProtectedListings | undefined,
): boolean =>
  matchCompiledGlob(c.glob, resource) &&
  (!c.rule.listedOnly || listings?.[c.rule.listedOnly]?.has(resource) === true);

/**
 * The rules whose resource pattern covers this request resource (taken as a literal
 * string). `listings`: the model's lists of resources the ARN does not describe
 * (`AccountModel.awsManagedKeys`); without them, those rules never apply.
 */
export function protectedRulesFor(
  resource: string,
  listings?: ProtectedListings,
): readonly ProtectedResourceRule[] {
  if (!resource.startsWith("arn:")) return [];
  return COMPILED.filter((c) => covers(c, resource, listings)).map((c) => c.rule);
}

/** The rule that makes AWS refuse this action on this resource, if any. */
export function refusedByAws(
  action: string,
  resource: string,
  listings?: ProtectedListings,
): ProtectedResourceRule | undefined {
  const prefix = action.slice(0, action.indexOf(":")).toLowerCase();
  if (!PROTECTED_PREFIXES.has(prefix)) return undefined;
  const lower = action.toLowerCase();
  for (const c of COMPILED)
    if (c.actions.has(lower) && covers(c, resource, listings)) return c.rule;
  return undefined;
}
