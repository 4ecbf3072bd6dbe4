import type { ConditionAtom, Formula } from "../logic/formula.ts";
import type { AuthorizationResult } from "./authorization-result.ts";
import { UNRESOLVED_VARIABLE } from "./evaluate-statement.ts";

/** The operator of the condition that the caller's account owns a bucket of unknown owner. */
export const RESOURCE_OWNER = "ResourceOwner";

/** The operator of the conditions that a KMS key policy which could not be read allows. */
export const KEY_POLICY_UNREAD = "KeyPolicyUnread";

/** One undecided condition as text: `StringEquals aws:SourceVpc ["vpc-1"] (policy#Sid)`. */
export function formatConditionAtom(atom: ConditionAtom): string {
  if (atom.operator === RESOURCE_OWNER)
    return `${atom.operator} ${atom.key} ${JSON.stringify(atom.values)} (the bucket's owner is not in the snapshots)`;
  if (atom.operator === KEY_POLICY_UNREAD)
    return `${atom.operator} ${atom.key} (the key policy of ${atom.policyId} could not be read: ${atom.key === "caller" ? "it may allow the caller itself" : "it may let the account's IAM policies allow"})`;
  return `${atom.operator} ${atom.key} ${JSON.stringify(atom.values)} (${atom.policyId}, ${atom.statement})`;
}

/** A condition formula as text with AND / OR / NOT and parentheses. */
export function formatFormula(f: Formula): string {
  switch (f.kind) {
    case "true":
      return "true";
    case "false":
      return "false";
    case "atom":
      return formatConditionAtom(f.atom);
    case "not":
      return `NOT (${formatFormula(f.item)})`;
    case "and":
    case "or":
      return f.items
        .map((item) =>
          item.kind === "and" || item.kind === "or"
            ? `(${formatFormula(item)})`
            : formatFormula(item),
        )
        .join(f.kind === "and" ? " AND " : " OR ");
  }
}

/** A decision and its explanation as readable lines, e.g. for a command-line tool. */
export function formatAuthorization(result: AuthorizationResult): string {
  const lines = [
    `decision: ${result.decision}${result.stoppedBy ? ` (stopped by ${result.stoppedBy})` : ""}`,
  ];
  if (result.condition) lines.push(`allowed only when: ${formatFormula(result.condition)}`);
  if (result.statements.length > 0) lines.push("matching statements:");
  for (const s of result.statements) {
    const via = s.attachedVia ? ` via ${s.attachedVia}` : "";
    lines.push(
      `  ${s.effect.padEnd(5)} ${s.policyType} ${s.policyName} ${s.statement}${via}${s.invalid ? " [invalid, kept as a Deny that may apply]" : s.match === "conditional" ? " [if conditions hold]" : ""}`,
    );
  }
  for (const note of result.notes) lines.push(`note: ${note}`);
  const owner = result.conditions.find((a) => a.operator === RESOURCE_OWNER);
  if (owner)
    lines.push(
      `note: no bucket policy or bucket list names the bucket's account: the same-account answer holds only if account ${owner.values.join(", ")} owns the bucket (give the account's bucket list to decide)`,
    );
  const unread = result.conditions.find((a) => a.operator === KEY_POLICY_UNREAD);
  if (unread)
    lines.push(
      `note: the key policy of ${unread.policyId} could not be read: the default key policy is not assumed, and whether the key policy allows is undecided (read it to decide)`,
    );
  for (const a of result.conditions)
    if (a.operator === UNRESOLVED_VARIABLE)
      lines.push(
        `note: ${a.statement} of ${a.policyId} applies through its NotResource only if AWS keeps the statement although ${a.key} has no value for this caller (IAM User Guide, 'IAM policy elements: Variables and tags': such a statement may be invalid)`,
      );
  for (const issue of result.issues)
    lines.push(`${issue.severity}: ${issue.path}: ${issue.message}`);
  return lines.join("\n");
}
