import { type AccessChange, groupChangesByCause } from "@sightline/domain";

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

/** A change folded under its group's line: what it is, in one line. */
function lineOf(change: AccessChange): string {
  const access = [change.serviceName, change.accessCapability].filter(Boolean).join(" ");
  const where = change.resourceArn ? ` on ${change.resourceArn}` : access ? " (service-wide)" : "";
  const what = access || where ? `, ${access}${where}` : "";
  return `${change.kind}: ${change.principalName || change.principalArn}${what} (${change.before || "—"} → ${change.after || "—"})`;
}

interface DigestEntry {
  /** The group's line, e.g. "bob became an IAM admin — granted by AdministratorAccess (+212 capability changes)". */
  heading: string;
  head: AccessChange;
  /** The group's other changes shown, one line each. */
  folded: string[];
}

/**
 * The changes grouped by cause (making bob an admin is one entry, not 200), each group's head
 * in full and the rest a line each, up to `MAX_DIGEST_CHANGES` changes in all.
 */
function entriesOf(changes: readonly AccessChange[]): { entries: DigestEntry[]; shown: number } {
  const entries: DigestEntry[] = [];
  let shown = 0;
  for (const group of groupChangesByCause(changes)) {
    if (shown >= MAX_DIGEST_CHANGES) break;
    const rest = group.changes.filter((c) => c !== group.head);
    const folded = rest.slice(0, MAX_DIGEST_CHANGES - shown - 1).map(lineOf);
    shown += 1 + folded.length;
    const heading = group.more ? `${group.title} (${group.more})` : group.title;
    entries.push({ heading, head: group.head, folded });
  }
  return { entries, shown };
}

/** Subject, plain text and HTML of one digest: every change of one analysis for one destination. */
export function emailDigest(
  context: DigestContext,
  changes: readonly AccessChange[],
): { subject: string; text: string; html: string } {
  const count = `${changes.length} access change${changes.length === 1 ? "" : "s"}`;
  const subject = `Sightline: ${count} in ${accountOf(context)}`;
  const { entries, shown } = entriesOf(changes);
  const more = changes.length - shown;
  const intro = `The analysis ${context.executionId} of ${accountOf(context)} (customer ${context.customerId}) at ${context.analysisTime.toISOString()} found ${count} since the previous one.`;
  const moreText =
    more > 0 ? `… and ${more} more: the analysis's access-changes report lists them all.` : "";
  const footer = `Alert ${context.alertId}. Sent by Sightline to the addresses configured for this alert destination.`;
  const text = [
    intro,
    "",
    ...entries.flatMap((entry, i) => [
      `${i + 1}. ${entry.heading}`,
      ...rowsOf(entry.head).map(([label, value]) => `   ${label}: ${value}`),
      ...entry.folded.map((line) => `   - ${line}`),
      "",
    ]),
    ...(moreText ? [moreText, ""] : []),
    footer,
    "",
  ].join("\n");
  const tables = entries
    .map(
      (entry, i) =>
        `<h3>${i + 1}. ${escapeHtml(entry.heading)}</h3>\n<table>\n${rowsOf(entry.head)
          .map(
            ([label, value]) =>
              `<tr><th align="left">${label}</th><td>${escapeHtml(value)}</td></tr>`,
          )
          .join("\n")}\n</table>${
          entry.folded.length > 0
            ? `\n<ul>\n${entry.folded.map((line) => `<li>${escapeHtml(line)}</li>`).join("\n")}\n</ul>`
            : ""
        }`,
    )
    .join("\n");
  const html = `<!doctype html>\n<html><body>\n<p>${escapeHtml(intro)}</p>\n${tables}\n${
    moreText ? `<p>${escapeHtml(moreText)}</p>\n` : ""
  }<p><small>${escapeHtml(footer)}</small></p>\n</body></html>\n`;
  return { subject, text, html };
}
