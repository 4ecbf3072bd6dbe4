export type ContextValue = string | number | boolean;

/**
 * What an assumed-role session brings besides its role (IAM User Guide, 'Session
 * policies' and 'Passing session tags in AWS STS'): the session policies and session
 * tags given to `AssumeRole*`. Only for a role or assumed-role session as principal.
 */
export interface SessionInputs {
  /**
   * Inline session policy documents (AWS allows one; several are all applied). Decoded,
   * JSON text or URL-encoded, like any policy document. With at least one session policy
   * (here or in `policyArns`), identity-policy grants, role-ARN resource-policy grants and
   * delegations to the account hold only where a session policy also allows; a Deny in a
   * session policy denies. Grants that name the session ARN (or `*`) are not limited.
   */
  policies?: readonly unknown[];
  /** Managed policies passed as session policies (`PolicyArns`), found in the model. */
  policyArns?: readonly string[];
  /**
   * Session tags: they become `aws:PrincipalTag/<key>` and override the role's tag of the
   * same key (compared case-insensitively). Keys that differ only in case are an error.
   */
  tags?: Readonly<Record<string, string>>;
  /** Transitive tag keys (each one of `tags`): accepted and checked; they matter only for later role chaining. */
  transitiveTagKeys?: readonly string[];
}

export interface AuthorizationRequest {
  /**
   * Who asks: a user, role or assumed-role session ARN, an account root
   * (`arn:aws:iam::123456789012:root`), a service principal (`s3.amazonaws.com`),
   * `federated:<provider>`, or `*` for an anonymous caller.
   */
  principal: string;
  /** `service:Action`, matched case-insensitively. */
  action: string;
  /** The resource ARN, or `*` for actions without a resource. */
  resource: string;
  /** Request context keys (case-insensitive names) and their values. */
  context?: Readonly<Record<string, ContextValue | readonly ContextValue[]>>;
  /** Session name when `principal` is a role ARN; fills `aws:userid` and session-ARN principals. */
  sessionName?: string;
  /**
   * Keys neither in `context` nor derivable by the engine: `unknown` (default) makes
   * conditions on them come back as `conditional`; `absent` applies AWS's missing-key
   * rules as if the request really lacked them.
   */
  missingKeys?: "unknown" | "absent";
  /**
   * Session policies and session tags of an assumed-role session. A bad shape, a managed
   * policy ARN not in the model, or a principal that is not a role or assumed-role session
   * comes back in `issues` with an `implicit-deny`.
   */
  session?: SessionInputs;
}
