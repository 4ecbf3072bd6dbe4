import { z } from "zod";

/**
 * What made a change, in words a reviewer acts on. Making `bob` an admin yields one
 * `iam-admin-gained` and hundreds of `access-gained` rows: they all carry the same cause, so the
 * console and the email digest show them as one line that unfolds.
 */
export const CHANGE_CAUSE_KINDS = [
  /**
   * The principal became, or stopped being, an IAM admin: `principalArn`, and `policyArn` the
   * managed policy that makes it one (when one does). The capabilities it gained (granted by that
   * policy) or lost in the same analysis share this cause.
   */
  "iam-admin",
  /**
   * An identity policy of the principal grants it now: `principalArn`, and `policyArn` when it is
   * a managed policy (an inline policy has no ARN). In an event step, also the managed policy an
   * event changed, when the principal lost access through it.
   */
  "policy",
  /** The policy of `resourceArn` (a bucket's, a key's, a role's trust policy) grants it now. */
  "resource-policy",
  /**
   * The principal itself (`principalArn`): added, removed, its credentials; or access it lost
   * whose policy a comparison cannot name (what is gone grants nothing to name).
   */
  "principal",
  /** An SCP or RCP of the organisation: only an event step tells, from its events. */
  "organization",
] as const;
export const ChangeCauseKind = z.enum(CHANGE_CAUSE_KINDS);
export type ChangeCauseKind = z.infer<typeof ChangeCauseKind>;

export const ChangeCause = z
  .object({
    kind: ChangeCauseKind,
    principalArn: z.string().optional(),
    policyArn: z.string().optional(),
    resourceArn: z.string().optional(),
    /**
     * An event step's changes: the CloudTrail `eventID`s whose targets explain it (the
     * principal's own, a managed policy attached to it, a group it is in, the resource's policy);
     * every event of the step when none names it alone. Absent for a full analysis.
     */
    eventIds: z.array(z.string()).optional(),
  })
  .meta({
    id: "ChangeCause",
    description:
      "What made the change: `iam-admin` (the principal became or stopped being an IAM admin, `policyArn` making it one; the capabilities gained or lost with it share the cause), `policy` (an identity policy of the principal, `policyArn` when managed), `resource-policy` (the policy of `resourceArn`), `principal` (the principal itself: added, removed, credentials, or access lost whose policy is gone), `organization` (an SCP or RCP, event steps only). Changes with equal causes are one act. `eventIds`: the CloudTrail events of an event step that explain it.",
  });
export type ChangeCause = z.infer<typeof ChangeCause>;
