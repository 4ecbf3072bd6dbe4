import type { AccessChange } from "@sightline/domain";
import nodemailer from "nodemailer";
import type { AlertSettings } from "./alert-settings.ts";
import { type DigestContext, emailDigest } from "./email-digest.ts";
import type { SendResult } from "./send-webhook.ts";

/** Connection-level failures of the relay: they may pass. */
const TRANSIENT_CODES = new Set([
  "ECONNECTION",
  "ETIMEDOUT",
  "ESOCKET",
  "EDNS",
  "ECONNREFUSED",
  "ECONNRESET",
  "EAUTH",
  "ETLS",
]);

/** Removes anything of the relay's URL (its password above all) from a message. */
function scrub(text: string, smtpUrl: string): string {
  let clean = text;
  try {
    const url = new URL(smtpUrl);
    for (const part of [url.password, decodeURIComponent(url.password), smtpUrl])
      if (part) clean = clean.split(part).join("[redacted]");
  } catch {
    clean = clean.split(smtpUrl).join("[redacted]");
  }
  return clean.slice(0, 500);
}

/**
 * Sends one digest through the operator's SMTP relay. The relay's 4xx and connection failures
 * may pass (retried); its 5xx (a refused recipient, a refused message) fail for good.
 */
export async function sendEmailDigest(input: {
  settings: AlertSettings;
  recipients: readonly string[];
  context: DigestContext;
  changes: readonly AccessChange[];
}): Promise<SendResult> {
  const smtp = input.settings.smtp;
  if (!smtp)
    return {
      outcome: "failed",
      error: "the operator has no mail relay any more (SIGHTLINE_SMTP_URL is not set)",
    };
  const digest = emailDigest(input.context, input.changes);
  const transport = nodemailer.createTransport(smtp.url);
  try {
    await transport.sendMail({
      from: smtp.from,
      to: [...input.recipients],
      subject: digest.subject,
      text: digest.text,
      html: digest.html,
      headers: { "Sightline-Alert-Id": input.context.alertId },
    });
    return { outcome: "delivered" };
  } catch (error) {
    const fields = error as { code?: unknown; responseCode?: unknown; message?: unknown };
    const responseCode = typeof fields.responseCode === "number" ? fields.responseCode : undefined;
    const code = typeof fields.code === "string" ? fields.code : undefined;
    const message = scrub(String(fields.message ?? error), smtp.url);
    const said = `the mail relay refused the digest (${[code, responseCode].filter(Boolean).join(" ")}): ${message}`;
    const transient =
      responseCode !== undefined
        ? responseCode < 500
        : code === undefined || TRANSIENT_CODES.has(code);
    return { outcome: transient ? "retry" : "failed", error: said };
  } finally {
    transport.close();
  }
}
