import { parseArgs } from "node:util";
import {
  type ChainVerdict,
  createDb,
  listAuditTenants,
  pruneAuditEvents,
  verifyAuditChain,
} from "@sightline/db";
import { UsageError } from "./usage.ts";

const TENANT = /^(P\d{6}|C\d{5,6}|operator)$/;
const DAY_MS = 86_400_000;

export type AuditCommand =
  | { kind: "verify"; databaseUrl: string; tenants: string[] | "all" }
  | { kind: "prune"; databaseUrl: string; retentionDays: number };

/**
 * `sightline audit verify --tenant P123456 [--tenant …] | --all` and `sightline audit prune
 * [--days N]`: operator tools over DATABASE_URL (the service's database), like `snapshot import`.
 */
export function parseAuditArgs(
  subcommand: string | undefined,
  args: readonly string[],
  env: { DATABASE_URL?: string | undefined; SIGHTLINE_AUDIT_RETENTION_DAYS?: string | undefined },
): AuditCommand {
  const databaseUrl = env.DATABASE_URL;
  if (!databaseUrl) throw new UsageError("audit: DATABASE_URL must name the service's database");
  if (subcommand === "verify") {
    const { values } = parseArgs({
      args: [...args],
      options: { tenant: { type: "string", multiple: true }, all: { type: "boolean" } },
      strict: true,
    });
    const tenants = values.tenant ?? [];
    if (values.all && tenants.length > 0) throw new UsageError("give --tenant or --all, not both");
    if (!values.all && tenants.length === 0)
      throw new UsageError("audit verify needs --tenant <partner or customer ID> or --all");
    for (const tenant of tenants)
      if (!TENANT.test(tenant))
        throw new UsageError(
          `--tenant must be a partner ID (P123456), a customer ID (C12345) or operator; got '${tenant}'`,
        );
    return { kind: "verify", databaseUrl, tenants: values.all ? "all" : tenants };
  }
  if (subcommand === "prune") {
    const { values } = parseArgs({
      args: [...args],
      options: { days: { type: "string" } },
      strict: true,
    });
    const text = values.days ?? env.SIGHTLINE_AUDIT_RETENTION_DAYS ?? "400";
    const retentionDays = Number(text);
    if (!Number.isInteger(retentionDays) || retentionDays < 1)
      throw new UsageError(
        `--days (or SIGHTLINE_AUDIT_RETENTION_DAYS) must be a whole number of days ≥ 1; got '${text}'`,
      );
    return { kind: "prune", databaseUrl, retentionDays };
  }
  throw new UsageError("audit needs a subcommand: audit verify or audit prune");
}

/** Runs the command; each verdict or the pruning's count as a JSON line. Exit 1 when a chain fails. */
export async function runAudit(command: AuditCommand, writeLine: (line: string) => Promise<void>) {
  const { db, close } = createDb(command.databaseUrl, { maxConnections: 2 });
  try {
    if (command.kind === "prune") {
      const now = new Date();
      const before = new Date(now.getTime() - command.retentionDays * DAY_MS);
      const pruned = await pruneAuditEvents(db, before, now);
      await writeLine(JSON.stringify({ pruned, before: before.toISOString() }));
      return 0;
    }
    const tenants = command.tenants === "all" ? await listAuditTenants(db) : command.tenants;
    let failed = false;
    for (const tenant of tenants) {
      const verdict: ChainVerdict = await verifyAuditChain(db, tenant);
      failed ||= verdict.problems.length > 0;
      await writeLine(JSON.stringify({ ...verdict, ok: verdict.problems.length === 0 }));
    }
    return failed ? 1 : 0;
  } finally {
    await close();
  }
}
