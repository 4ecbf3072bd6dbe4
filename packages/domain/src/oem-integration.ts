import { z } from "zod";
import { PartnerId } from "./identifiers.ts";

/** Body of `PUT /admin/partners/{partnerId}/oem-integration`: the operator's grant, or its end. */
export const OemIntegrationGrant = z.strictObject({
  oemIntegrationEnabled: z
    .boolean()
    .describe("Whether the partner is an OEM integration: its accounts may use `cvs`"),
});
export type OemIntegrationGrant = z.infer<typeof OemIntegrationGrant>;

export const OemIntegrationRecord = z.object({
  partnerId: PartnerId,
  oemIntegrationEnabled: z.boolean(),
  grantedAt: z.iso.datetime().optional().describe("When the operator granted it (first grant)"),
});
export type OemIntegrationRecord = z.infer<typeof OemIntegrationRecord>;

/** Where the operator grants it; the messages of every refusal name it. */
export const oemIntegrationPath = (partnerId: string) =>
  `/admin/partners/${partnerId}/oem-integration`;

/** The rule, in the words every refusal uses: the partner's own key is no authority. */
export const oemIntegrationRule = (partnerId: string) =>
  `only the operator makes partner ${partnerId} an OEM integration (PUT ${oemIntegrationPath(partnerId)}); ask the operator`;

/** Why an account of a partner that is not an OEM integration cannot use credential vending. */
export const cvsNeedsOemIntegration = (partnerId: string) =>
  `auditorAuthMethod 'cvs' (credential vending) is for OEM integrations, and ${oemIntegrationRule(partnerId)}`;
