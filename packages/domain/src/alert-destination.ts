import { z } from "zod";
import { AccessChange, ChangeKind, DEFAULT_ALERT_KINDS } from "./access-change.ts";
import { AccountId, CustomerId, PartnerId } from "./identifiers.ts";
import { ExternalId } from "./monitored-account.ts";

/** At most this many destinations per partner or direct customer. */
export const MAX_ALERT_DESTINATIONS = 10;
/** At most this many recipients per email destination. */
export const MAX_ALERT_RECIPIENTS = 20;
/** How many of a destination's latest attempts GET shows. */
export const RECENT_ALERT_ATTEMPTS = 10;

/** The headers of a webhook request (lower case, as Node and most frameworks hand them over). */
export const ALERT_ID_HEADER = "sightline-alert-id";
export const ALERT_TIMESTAMP_HEADER = "sightline-timestamp";
export const ALERT_SIGNATURE_HEADER = "sightline-signature";

/** Why a Security Hub role is refused: another tenant names it. Names nobody. */
export const SECURITY_HUB_ROLE_IN_USE =
  "roleArn: this role is already configured by another Sightline tenant (as an alert destination, or with this external ID as an auditor role); AWS's confused-deputy guidance makes a role and its external ID one tenant's: name a role of your own";

const CONTROL_CHARACTERS = /\p{Cc}/u;

const DestinationName = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(64, "must be at most 64 characters")
  .refine((text) => !CONTROL_CHARACTERS.test(text), "must not contain control characters")
  .describe("the destination's name, unique among the owner's destinations");

const AlertOn = z
  .array(ChangeKind)
  .min(1, "must name at least one change kind")
  .refine((kinds) => new Set(kinds).size === kinds.length, "must not repeat a change kind")
  .optional()
  .describe(
    `the change kinds that alert (default: ${DEFAULT_ALERT_KINDS.join(", ")}); a gained access that is both external and confidential answers both rules`,
  );

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

export const WebhookUrl = z
  .url({ protocol: /^https?$/, message: "must be an absolute https:// URL" })
  .max(2048, "must be at most 2048 characters")
  .refine((text) => {
    const url = parseUrl(text);
    return url !== undefined && url.username === "" && url.password === "";
  }, "must not contain a user name or password: Sightline signs each request instead")
  .refine((text) => parseUrl(text)?.hash === "", "must not contain a fragment (#…)");

export const WebhookDestinationInput = z
  .strictObject({
    name: DestinationName,
    kind: z.literal("webhook"),
    url: WebhookUrl.describe(
      "an https:// URL of a public host (private, loopback, link-local and metadata addresses are refused, at configuration and at each delivery)",
    ),
    alertOn: AlertOn,
  })
  .meta({ id: "WebhookDestinationInput" });

export const EmailDestinationInput = z
  .strictObject({
    name: DestinationName,
    kind: z.literal("email"),
    recipients: z
      .array(z.email({ message: "must be an email address" }).max(254))
      .min(1, "must name at least one recipient")
      .max(MAX_ALERT_RECIPIENTS, `must name at most ${MAX_ALERT_RECIPIENTS} recipients`)
      .refine(
        (list) => new Set(list.map((r) => r.toLowerCase())).size === list.length,
        "must not repeat a recipient",
      )
      .describe("who receives one digest per analysis (needs the operator's mail relay)"),
    alertOn: AlertOn,
  })
  .meta({ id: "EmailDestinationInput" });

const roleArnPattern =
  /^arn:(aws|aws-us-gov|aws-iso|aws-iso-b):iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;
const regionPattern = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;

/** The partition a region belongs to, by its name. */
export function partitionOfRegion(region: string): string {
  if (region.startsWith("us-gov-")) return "aws-us-gov";
  if (region.startsWith("us-isob-")) return "aws-iso-b";
  if (region.startsWith("us-iso-")) return "aws-iso";
  return "aws";
}

export const SecurityHubDestinationInput = z
  .strictObject({
    name: DestinationName,
    kind: z.literal("securityhub"),
    roleArn: z
      .string()
      .regex(
        roleArnPattern,
        "must be an IAM role ARN, e.g. arn:aws:iam::123456789012:role/SightlineFindings",
      )
      .describe(
        "a role in your AWS account that trusts Sightline's principal with your external ID and allows securityhub:BatchImportFindings",
      ),
    externalId: ExternalId.describe("the external ID the role's trust policy requires"),
    region: z
      .string()
      .regex(regionPattern, "must be an AWS region, e.g. us-east-1")
      .describe("the region whose Security Hub receives the findings"),
    alertOn: AlertOn,
  })
  .superRefine((value, ctx) => {
    const partition = /^arn:([a-z-]+):/.exec(value.roleArn)?.[1];
    if (partition && partition !== partitionOfRegion(value.region))
      ctx.addIssue({
        code: "custom",
        path: ["region"],
        message: `must be a region of the role's partition (${partition})`,
      });
  })
  .meta({ id: "SecurityHubDestinationInput" });

export const AlertDestinationInput = z.discriminatedUnion("kind", [
  WebhookDestinationInput,
  EmailDestinationInput,
  SecurityHubDestinationInput,
]);
export type AlertDestinationInput = z.infer<typeof AlertDestinationInput>;

/** The body of `PUT …/alert-destinations`: the whole list, which replaces the stored one. */
export const AlertDestinationsBody = z
  .strictObject({
    destinations: z
      .array(AlertDestinationInput)
      .max(MAX_ALERT_DESTINATIONS, `must hold at most ${MAX_ALERT_DESTINATIONS} destinations`),
  })
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    value.destinations.forEach((destination, index) => {
      const name = destination.name.toLowerCase();
      if (seen.has(name))
        ctx.addIssue({
          code: "custom",
          path: ["destinations", index, "name"],
          message: "must be unique among the destinations (compared without case)",
        });
      seen.add(name);
    });
  })
  .meta({ id: "AlertDestinationsBody" });
export type AlertDestinationsBody = z.infer<typeof AlertDestinationsBody>;

export const AlertAttemptOutcome = z.enum(["delivered", "retrying", "failed"]);
export type AlertAttemptOutcome = z.infer<typeof AlertAttemptOutcome>;

/** One attempt to deliver one alert. Never carries a secret. */
export const AlertAttempt = z
  .object({
    alertId: z.string(),
    at: z.iso.datetime(),
    outcome: AlertAttemptOutcome.describe(
      "`delivered`; `retrying`: failed in a way that may pass, tried again with back-off; `failed`: for good",
    ),
    status: z.number().int().optional().describe("the HTTP status the receiver answered"),
    error: z.string().optional().describe("what went wrong, when it did"),
  })
  .meta({ id: "AlertAttempt" });
export type AlertAttempt = z.infer<typeof AlertAttempt>;

const stored = {
  destinationId: z.uuid(),
  name: z.string(),
  alertOn: z.array(ChangeKind),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  recentAttempts: z
    .array(AlertAttempt)
    .describe(`the destination's latest attempts, newest first (at most ${RECENT_ALERT_ATTEMPTS})`),
};

/** A stored destination as GET answers it: never its secret, never the external ID. */
export const AlertDestination = z
  .discriminatedUnion("kind", [
    z.object({ ...stored, kind: z.literal("webhook"), url: z.string() }),
    z.object({ ...stored, kind: z.literal("email"), recipients: z.array(z.string()) }),
    z.object({
      ...stored,
      kind: z.literal("securityhub"),
      roleArn: z.string(),
      region: z.string(),
    }),
  ])
  .meta({ id: "AlertDestination" });
export type AlertDestination = z.infer<typeof AlertDestination>;

export const AlertDestinations = z
  .object({ destinations: z.array(AlertDestination) })
  .meta({ id: "AlertDestinations" });
export type AlertDestinations = z.infer<typeof AlertDestinations>;

/** The answer to PUT: as GET, plus `secret` on each webhook destination created by this PUT. */
export const StoredAlertDestinations = z
  .object({
    destinations: z.array(
      z.intersection(
        AlertDestination,
        z.object({
          secret: z
            .string()
            .optional()
            .describe(
              "the webhook's signing secret (32 random bytes, base64url): shown only here, when the destination is created; keep it, Sightline never shows it again",
            ),
        }),
      ),
    ),
  })
  .meta({ id: "StoredAlertDestinations" });
export type StoredAlertDestinations = z.infer<typeof StoredAlertDestinations>;

/** The answer to a secret rotation: the new secret, shown only here. */
export const RotatedAlertSecret = z
  .object({
    destinationId: z.uuid(),
    secret: z.string().describe("the new signing secret; the old one stops at once"),
  })
  .meta({ id: "RotatedAlertSecret" });
export type RotatedAlertSecret = z.infer<typeof RotatedAlertSecret>;

export const PartnerAlertDestinationPath = z.object({
  partnerId: PartnerId,
  destinationId: z.uuid({ message: "must be a destination ID (a UUID)" }),
});
export const CustomerAlertDestinationPath = z.object({
  customerId: CustomerId,
  destinationId: z.uuid({ message: "must be a destination ID (a UUID)" }),
});

/** What a webhook receives (the JSON body Sightline signs). */
export const AlertPayload = z
  .object({
    alertId: z
      .string()
      .describe(
        "stable: derived from the destination, the execution and the changes it carries; the same alert sent again has the same ID",
      ),
    customerId: z.string(),
    accountId: AccountId,
    provider: z.string(),
    executionId: z.string().describe("the analysis that found the changes"),
    analysisTime: z.iso.datetime(),
    changes: z.array(AccessChange),
  })
  .meta({ id: "AlertPayload" });
export type AlertPayload = z.infer<typeof AlertPayload>;
