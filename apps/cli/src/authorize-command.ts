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
