import { setTimeout as sleep } from "node:timers/promises";
import { GenerateCredentialReportCommand, GetCredentialReportCommand } from "@aws-sdk/client-iam";
import { type CollectContext, readOrWarn } from "./collect-context.ts";
import { type CredentialReport, parseCredentialReport } from "./parse-credential-report.ts";

export interface CredentialReportTiming {
  readonly timeoutMs: number;
  /** The longest pause between two polls; the first is 250 ms, doubling up to it. */
  readonly pollMs: number;
}

const FIRST_POLL_MS = 250;

const ATTEMPT = {
  target: "the IAM credential report",
  kind: "credential-report-unavailable" as const,
  consequence: "Password and access key columns are empty",
};

/**
 * Asks IAM to generate the credential report (it reuses one younger than four hours), polls
 * until it is complete, then reads it. A refusal or a report still not ready after
 * `timeoutMs` is a warning.
 */
export async function readCredentialReport(
  ctx: CollectContext,
  timing: CredentialReportTiming,
): Promise<CredentialReport | undefined> {
  const iam = ctx.clients.iam;
  const deadline = Date.now() + timing.timeoutMs;
  const complete = await readOrWarn(
    ctx,
    { ...ATTEMPT, action: "iam:GenerateCredentialReport" },
    async () => {
      // IAM often finishes within a second: poll soon, then back off to `pollMs`.
      let pause = Math.min(FIRST_POLL_MS, timing.pollMs);
      for (;;) {
        const answer = await iam.send(new GenerateCredentialReportCommand({}));
        if (answer.State === "COMPLETE") return true;
        if (Date.now() + pause > deadline) return false;
        await sleep(pause);
        pause = Math.min(pause * 2, timing.pollMs);
      }
    },
  );
  if (complete === false) {
    ctx.warnings.push({
      kind: ATTEMPT.kind,
      action: "iam:GenerateCredentialReport",
      message: `${ATTEMPT.consequence}: IAM did not finish the credential report within ${Math.round(timing.timeoutMs / 1000)} s`,
    });
  }
  if (!complete) return undefined;
  return readOrWarn(ctx, { ...ATTEMPT, action: "iam:GetCredentialReport" }, async () => {
    const answer = await iam.send(new GetCredentialReportCommand({}));
    const csv = new TextDecoder().decode(answer.Content ?? new Uint8Array());
    return {
      ...(answer.GeneratedTime ? { generatedAt: answer.GeneratedTime.toISOString() } : {}),
      rows: parseCredentialReport(csv),
    };
  });
}
