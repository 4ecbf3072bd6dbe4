import type { AccessChange } from "@sightline/domain";

/** The analysis an alert is about. */
export interface DigestContext {
  alertId: string;
  customerId: string;
  accountId: string;
  provider: string;
  executionId: string;
  analysisTime: Date;
}

/** A digest lists at most this many changes; the rest are counted (the reports hold them all). */
export const MAX_DIGEST_CHANGES = 200;

const PROVIDERS: Readonly<Record<string, string>> = {
  aws: "AWS account",
  "aws-us-gov": "AWS GovCloud account",
  "aws-iso": "AWS ISO account",
  "aws-iso-b": "AWS ISOB account",
  azure: "Azure subscription",
  "azure-government": "Azure Government subscription",
};

const accountOf = (context: DigestContext) =>
  `${PROVIDERS[context.provider] ?? `${context.provider} account`} ${context.accountId}`;

/** The rows of a change, in the order both bodies show them. */
function rowsOf(change: AccessChange): [string, string][] {
  const access = [change.serviceName, change.accessCapability].filter(Boolean).join(" ");
  return [
    ["Kind", change.kind],
    ["Principal", `${change.principalArn} (${change.principalType})`],
    ["Service", change.serviceName || "—"],
    ["Capability", change.accessCapability || "—"],
    ["Resource", change.resourceArn || (access ? "service-wide" : "—")],
    ["Change", `${change.before || "—"} → ${change.after || "—"}`],
    ["Granted by", change.grantedBy.length > 0 ? change.grantedBy.join("; ") : "—"],
  ];
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Subject, plain text and HTML of one digest: every change of one analysis for one destination. */
export function emailDigest(
  context: DigestContext,
  changes: readonly AccessChange[],
): { subject: string; text: string; html: string } {
  const count = `${changes.length} access change${changes.length === 1 ? "" : "s"}`;
  const subject = `Sightline: ${count} in ${accountOf(context)}`;
  const shown = changes.slice(0, MAX_DIGEST_CHANGES);
  const more = changes.length - shown.length;
  const intro = `The analysis ${context.executionId} of ${accountOf(context)} (customer ${context.customerId}) at ${context.analysisTime.toISOString()} found ${count} since the previous one.`;
  const moreText =
    more > 0 ? `… and ${more} more: the analysis's access-changes report lists them all.` : "";
  const footer = `Alert ${context.alertId}. Sent by Sightline to the addresses configured for this alert destination.`;
  const text = [
    intro,
    "",
    ...shown.flatMap((change, i) => [
      `${i + 1}. ${change.kind}: ${change.principalName || change.principalArn}`,
      ...rowsOf(change).map(([label, value]) => `   ${label}: ${value}`),
      "",
    ]),
    ...(moreText ? [moreText, ""] : []),
    footer,
    "",
  ].join("\n");
  const tables = shown
    .map(
      (change, i) =>
        `<h3>${i + 1}. ${escapeHtml(change.kind)}: ${escapeHtml(change.principalName || change.principalArn)}</h3>\n<table>\n${rowsOf(
          change,
        )
          .map(
            ([label, value]) =>
              `<tr><th align="left">${label}</th><td>${escapeHtml(value)}</td></tr>`,
          )
          .join("\n")}\n</table>`,
    )
    .join("\n");
  const html = `<!doctype html>\n<html><body>\n<p>${escapeHtml(intro)}</p>\n${tables}\n${
    moreText ? `<p>${escapeHtml(moreText)}</p>\n` : ""
  }<p><small>${escapeHtml(footer)}</small></p>\n</body></html>\n`;
  return { subject, text, html };
}
