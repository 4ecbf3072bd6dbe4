/**
 * A disk for the writers' file seam that fills up when told, and a partner delivering to the
 * local folder inbox: the fault suite's and the soak bench's disk faults.
 */
import { randomInt } from "node:crypto";
import { createWriteStream } from "node:fs";
import { copyFile, writeFile } from "node:fs/promises";
import { Writable } from "node:stream";
import { smallAccount } from "@sightline/aws-fake";
import { upsertMonitoredAccount, upsertPartner, upsertPartnerCustomer } from "@sightline/db";
import type { WorkerFiles } from "../../src/analysis/analysis-settings.ts";
import type { Pipeline } from "./pipeline.ts";

/** The kernel's answer to a write on a full disk. */
const noSpace = (file: string) =>
  Object.assign(new Error(`ENOSPC: no space left on device, write '${file}'`), {
    code: "ENOSPC",
    errno: -28,
    syscall: "write",
    path: file,
  });

/**
 * The local disk, until `full(file)` says it has no room: then that file's write fails ENOSPC
 * (a stream's write, a copy, a whole-file write). CI has no /dev/full and no tmpfs to fill.
 */
export function disk(full: (file: string) => boolean): WorkerFiles {
  return {
    createWriteStream: (file, options) =>
      full(file)
        ? new Writable({ write: (_chunk, _encoding, done) => done(noSpace(file)) })
        : createWriteStream(file, options),
    copyFile: async (source, target) => {
      if (full(target)) throw noSpace(target);
      await copyFile(source, target);
    },
    writeFile: async (target, bytes) => {
      if (full(target)) throw noSpace(target);
      await writeFile(target, bytes);
    },
  };
}

/** A partner delivering to the local folder inbox (no S3 destination), `latest` copies on. */
export async function folderPartner(pipeline: Pipeline) {
  const { ctx, fake } = pipeline;
  const partnerId = `P${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
  const partnerCustomerId = `tenant-${randomInt(1e9)}`;
  await upsertPartner(ctx.db, { partnerId });
  const ref = await upsertPartnerCustomer(ctx.db, {
    partnerId,
    partnerCustomerId,
    subscriptionPlanName: "Enterprise",
    deliveryDestinations: [{ methodName: "DeliverToPartner" }],
    featureFlags: { latestReportEnabled: true },
  });
  const externalId = `ext-${partnerId}`;
  fake.trustExternalId(smallAccount.AUDITOR_ROLE_ARN, externalId);
  await upsertMonitoredAccount(ctx.db, {
    partnerId,
    partnerCustomerId,
    accountId: smallAccount.ACCOUNT_ID,
    provider: "aws",
    auditorAuthMethod: "config",
    auditorAuthConfig: { roleArn: smallAccount.AUDITOR_ROLE_ARN, externalId },
  });
  return { partnerId, partnerCustomerId, customerId: ref?.customerId as string };
}
