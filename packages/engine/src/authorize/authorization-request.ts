export type ContextValue = string | number | boolean;

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
}
