import { parseArgs } from "node:util";
import { AwsAccountId, AwsPartition, PartnerCustomerId, PartnerId } from "@sightline/domain";
import {
  type OptionTable,
  SNAPSHOT_FILE_OPTIONS,
  snapshotFilesOf,
} from "./snapshot-file-options.ts";
import type { SnapshotImportCommand } from "./snapshot-import-command.ts";
import { UsageError } from "./usage.ts";

const OPTIONS = {
  ...SNAPSHOT_FILE_OPTIONS,
  partner: { type: "string" },
  customer: { type: "string" },
  account: { type: "string" },
  partition: { type: "string", default: "aws" },
} satisfies OptionTable;

/** The part of a zod schema used here: the CLI states the rule of the option that broke it. */
interface Schema<T> {
  safeParse(
    value: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
}

function checked<T>(
  option: string,
  schema: Schema<T>,
  value: string | undefined,
  rule?: string,
): T {
  if (value === undefined) throw new UsageError(`--${option} is required`);
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = rule ?? result.error.issues[0]?.message ?? "is not valid";
  throw new UsageError(`--${option} ${message}; got '${value}'`);
}

/**
 * `sightline snapshot import`'s arguments, checked with the service's own identifier schemas.
 * The database is the service's: `DATABASE_URL` when set, else the embedded Postgres in
 * `SIGHTLINE_DATA_DIR` (default `.data`), as the service itself chooses.
 */
export function parseSnapshotImportArgs(
  args: readonly string[],
  env: { DATABASE_URL?: string | undefined; SIGHTLINE_DATA_DIR?: string | undefined },
): SnapshotImportCommand {
  const { values } = parseArgs({ args: [...args], options: OPTIONS, strict: true });
  const files = snapshotFilesOf(values);
  const [authorizationDetails, ...others] = files.authorizationDetails;
  if (authorizationDetails === undefined || others.length > 0)
    throw new UsageError("--authorization-details is given once: a snapshot is one account");
  return {
    ...files,
    authorizationDetails,
    partnerId: checked("partner", PartnerId, values.partner),
    partnerCustomerId: checked("customer", PartnerCustomerId, values.customer),
    accountId: checked("account", AwsAccountId, values.account),
    partition: checked(
      "partition",
      AwsPartition,
      values.partition,
      `must be one of ${AwsPartition.options.join(", ")}`,
    ),
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    dataDir: env.SIGHTLINE_DATA_DIR || ".data",
  };
}
