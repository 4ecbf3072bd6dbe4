import type { AccessToken, TokenCredential } from "@azure/core-auth";
import { AppError, vendingServiceUrl } from "@sightline/domain";
import { z } from "zod";
import { callVendingService } from "./call-vending-service.ts";

/** The body Sightline POSTs to the credential vending service for an Azure subscription. */
export interface AzureVendingRequest {
  readonly partnerId: string;
  readonly partnerCustomerId: string;
  readonly customerId: string;
  /** The subscription ID. */
  readonly accountId: string;
  /** `azure` or `azure-government`. */
  readonly provider: string;
  readonly executionId: string;
  /** The token's scope, e.g. `https://management.azure.com/.default`: one call per API. */
  readonly scope?: string;
}

/** What the vending service answers with `200` for an Azure request. */
export const VendedAzureToken = z.object({
  accessToken: z.string().min(16, "must be an access token"),
  expiresOn: z.iso.datetime({ offset: true, error: "must be an ISO 8601 timestamp" }),
});

export interface VendedTokenCredentialInput {
  /** HTTPS; plain HTTP only on loopback, for tests. */
  readonly url: string;
  readonly token: string;
  readonly request: Omit<AzureVendingRequest, "scope">;
  /** Default 15 s. */
  readonly timeoutMs?: number;
  readonly now?: () => Date;
}

/** A vended token must stay valid this long: a collection takes minutes. */
const MINIMUM_VALIDITY_MS = 60_000;

/**
 * The `cvs` auditor method for Azure: a TokenCredential whose tokens come from the partner's
 * credential vending service, one POST per scope (ARM, Graph), cached until 5 minutes before
 * they expire. The protocol is the AWS one with `scope` added and `{ accessToken, expiresOn }`
 * answered (see README).
 */
export function createVendedTokenCredential(input: VendedTokenCredentialInput): TokenCredential {
  const url = vendingServiceUrl(input.url);
  const cache = new Map<string, AccessToken>();
  const now = () => (input.now ? input.now() : new Date()).getTime();
  return {
    async getToken(scopes) {
      const scope = Array.isArray(scopes) ? scopes[0] : scopes;
      const cached = scope && cache.get(scope);
      if (cached && cached.expiresOnTimestamp - now() > 5 * 60_000) return cached;
      const vended = await callVendingService({
        url,
        token: input.token,
        body: { ...input.request, scope },
        schema: VendedAzureToken,
        ...(input.timeoutMs !== undefined && { timeoutMs: input.timeoutMs }),
        wording: {
          notFound: "token for this subscription",
          malformed: "a malformed token",
          context: `scope ${scope}`,
        },
      });
      const expiresOnTimestamp = Date.parse(vended.expiresOn);
      if (expiresOnTimestamp - now() < MINIMUM_VALIDITY_MS)
        throw new AppError(
          "CREDENTIAL_EXPIRED",
          `The token vended by ${url.origin} expires at ${vended.expiresOn}, too soon for a collection`,
          { retryable: true },
        );
      const token = { token: vended.accessToken, expiresOnTimestamp };
      if (scope) cache.set(scope, token);
      return token;
    },
  };
}
