import {
  type AuthorizationResult,
  authorize,
  type ContextValue,
  createAccountModel,
} from "@sightline/engine";
import { loadSnapshots, type SnapshotFiles } from "./load-snapshots.ts";

export interface AuthorizeCommand extends SnapshotFiles {
  principal: string;
  action: string;
  resource: string;
  context: Record<string, ContextValue | ContextValue[]>;
  sessionName?: string;
}

/** `sightline authorize`: one request through AWS's evaluation logic, with its explanation. */
export async function runAuthorize(command: AuthorizeCommand): Promise<AuthorizationResult> {
  const model = createAccountModel(await loadSnapshots(command));
  return authorize(model, {
    principal: command.principal,
    action: command.action,
    resource: command.resource,
    context: command.context,
    ...(command.sessionName ? { sessionName: command.sessionName } : {}),
  });
}

/** The decision and its reasons, for a person reading a terminal. */
export function formatDecision(result: AuthorizationResult): string {
  const lines = [`decision: ${result.decision}`];
  if (result.stoppedBy) lines.push(`stopped by: ${result.stoppedBy}`);
  if (result.conditions.length > 0) {
    lines.push("allowed only if these conditions hold:");
    for (const atom of result.conditions) lines.push(`  ${JSON.stringify(atom)}`);
  }
  if (result.statements.length > 0) lines.push("statements:");
  for (const s of result.statements) {
    const via = s.attachedVia ? ` via ${s.attachedVia}` : "";
    const conditional = s.match === "conditional" ? " (under conditions)" : "";
    lines.push(
      `  ${s.effect.padEnd(5)} ${s.policyType} ${s.policyName} ${s.statement}${via}${conditional}`,
    );
  }
  for (const note of result.notes) lines.push(`note: ${note}`);
  for (const issue of result.issues) lines.push(`issue: ${issue.path}: ${issue.message}`);
  return lines.join("\n");
}
