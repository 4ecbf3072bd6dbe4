import type { CredentialReportRow } from "@sightline/domain";
import type { EventReads, GaadEntry } from "./event-reads.ts";

const NO_KEY = { active: false } as const;

/**
 * The credential report's rows with the read users': a deleted user's row goes, a new user's
 * comes (with what was read of its credentials, or none yet), a user whose credentials were
 * read gets them. MFA and the next rotation are not read: the previous row's stay.
 */
export function patchCredentialRows(
  rows: readonly CredentialReportRow[],
  previousUsers: readonly GaadEntry[],
  reads: EventReads,
): CredentialReportRow[] {
  const patched = [...rows];
  for (const [name, read] of Object.entries(reads.users)) {
    const previousArn = previousUsers.find((user) => user.UserName === name)?.Arn;
    const arn = String(read?.entry.Arn ?? previousArn ?? "");
    const index = patched.findIndex((row) => row.arn === arn);
    if (read === null) {
      if (index >= 0) patched.splice(index, 1);
      continue;
    }
    const old = index >= 0 ? patched[index] : undefined;
    if (old && !read.credentials) continue;
    const created = typeof read.entry.CreateDate === "string" ? read.entry.CreateDate : undefined;
    const credentials = read.credentials;
    const row: CredentialReportRow = {
      user: name,
      arn,
      ...(created ? { userCreationTime: new Date(created).toISOString() } : {}),
      passwordEnabled: credentials?.passwordEnabled ?? false,
      ...(credentials?.passwordLastUsed ? { passwordLastUsed: credentials.passwordLastUsed } : {}),
      ...(credentials?.passwordLastChanged
        ? { passwordLastChanged: credentials.passwordLastChanged }
        : {}),
      ...(old?.passwordNextRotation ? { passwordNextRotation: old.passwordNextRotation } : {}),
      mfaActive: old?.mfaActive ?? false,
      accessKeys: credentials?.accessKeys ?? [NO_KEY, NO_KEY],
    };
    if (index >= 0) patched[index] = row;
    else patched.push(row);
  }
  return patched;
}
