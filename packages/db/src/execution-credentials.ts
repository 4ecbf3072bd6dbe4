import { eq, lt } from "drizzle-orm";
import type { Executor } from "./client.ts";
import type { EncryptedCredential } from "./executions.ts";
import { executionCredentials } from "./schema.ts";

export async function getExecutionCredential(
  db: Executor,
  executionId: string,
): Promise<EncryptedCredential | undefined> {
  const [row] = await db
    .select()
    .from(executionCredentials)
    .where(eq(executionCredentials.executionId, executionId));
  if (!row) return undefined;
  const { executionId: _id, ...credential } = row;
  return { ...credential, keySource: credential.keySource as EncryptedCredential["keySource"] };
}

/** Deleted as soon as the account's configuration has been collected (section 5). */
export async function deleteExecutionCredential(db: Executor, executionId: string): Promise<void> {
  await db.delete(executionCredentials).where(eq(executionCredentials.executionId, executionId));
}

/** Credentials past their expiry are useless and are removed; returns how many. */
export async function deleteExpiredCredentials(db: Executor, now: Date): Promise<number> {
  const deleted = await db
    .delete(executionCredentials)
    .where(lt(executionCredentials.expiresAt, now))
    .returning({ executionId: executionCredentials.executionId });
  return deleted.length;
}
