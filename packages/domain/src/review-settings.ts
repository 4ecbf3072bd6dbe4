import { z } from "zod";
import { DEFAULT_CONFIDENTIAL_VALUES } from "./access-change.ts";

const Days = (what: string, fallback: number) =>
  z
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(fallback)
    .describe(`${what}, in days (1 to 3650; default ${fallback})`);

/**
 * What a customer calls confidential and the thresholds of its findings (extension). A PUT
 * replaces them; an absent field takes its default.
 */
export const ReviewSettings = z
  .object({
    confidentialValues: z
      .array(
        z
          .string()
          .min(1)
          .max(64)
          .regex(
            /^[\p{L}\p{N} _.:/=+@-]+$/u,
            "must be a tag value (letters, digits, spaces and _.:/=+@-)",
          ),
      )
      .min(1)
      .max(20)
      .default([...DEFAULT_CONFIDENTIAL_VALUES])
      .describe(
        `Values of a resource's Confidentiality tag that make it confidential, compared without case (default ${DEFAULT_CONFIDENTIAL_VALUES.join(", ")})`,
      ),
    unusedPrincipalDays: Days("A principal unused for longer is a finding", 90),
    credentialRotationDays: Days(
      "A password or active access key not rotated for longer is a finding",
      90,
    ),
    unusedAccessKeyDays: Days("An active access key unused for longer is a finding", 90),
    maxPrincipalsPerCapability: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(5)
      .describe(
        "A resource that more principals can administer, write or delete is a finding (default 5, as k9-cli's over-accessible-resources)",
      ),
  })
  .strict()
  .meta({ id: "ReviewSettings" });
export type ReviewSettings = z.infer<typeof ReviewSettings>;

export const DEFAULT_REVIEW_SETTINGS: ReviewSettings = ReviewSettings.parse({});
