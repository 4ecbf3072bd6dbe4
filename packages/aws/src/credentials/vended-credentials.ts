import { z } from "zod";

/** The body Sightline POSTs to a credential vending service (the `cvs` auditor method). */
export interface VendingRequest {
  readonly partnerId: string;
  /** The partner's own identifier of its customer. */
  readonly partnerCustomerId: string;
  /** The customer ID Sightline assigned (`<partnerId>-<12 digits>`). */
  readonly customerId: string;
  readonly accountId: string;
  /** `aws` or `aws-us-gov`: the partition whose STS credentials are wanted. */
  readonly provider: string;
  /** The analysis the credentials are for, for the vending service's audit trail. */
  readonly executionId: string;
}

/** What the vending service answers with `200`: STS credentials for the account. */
export const VendedCredentials = z.object({
  accessKeyId: z.string().regex(/^[A-Z0-9]{16,128}$/, "must be an AWS access key ID"),
  secretAccessKey: z.string().min(16, "must be a secret access key"),
  sessionToken: z.string().min(16, "must be an STS session token"),
  expiration: z.iso.datetime({ offset: true, error: "must be an ISO 8601 timestamp" }),
});
export type VendedCredentials = z.infer<typeof VendedCredentials>;
