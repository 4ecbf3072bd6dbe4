import type PgBoss from "pg-boss";

const schemas = new WeakMap<PgBoss, string>();

/** Notes the pg-boss schema of a queue started here (`startJobQueue`). */
export function rememberQueueSchema(boss: PgBoss, schema: string): void {
  schemas.set(boss, schema);
}

/** The pg-boss schema of a queue started here (the leases' reaper and the fair shares work in it). */
export function queueSchemaOf(boss: PgBoss): string {
  return schemas.get(boss) ?? "pgboss";
}
