import type { AccessToken, TokenCredential } from "@azure/core-auth";
import { AppError } from "@sightline/domain";
import { z } from "zod";

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

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
/** A vended token must stay valid this long: a collection takes minutes. */
const MINIMUM_VALIDITY_MS = 60_000;

/**
 * The `cvs` auditor method for Azure: a TokenCredential whose tokens come from the partner's
 * credential vending service, one POST per scope (ARM, Graph), cached until 5 minutes before
 * they expire. The protocol is the AWS one with `scope` added and `{ accessToken, expiresOn }`
 * answered (see README).
 */
export function createVendedTokenCredential(input: VendedTokenCredentialInput): TokenCredential {
  const url = URL.canParse(input.url) ? new URL(input.url) : undefined;
  const secure =
    url?.protocol === "https:" || (url?.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname));
  if (!url || !secure)
    throw new AppError(
      "CREDENTIAL_VENDING_FAILED",
      "The credential vending URL must be an https:// URL (plain http only on loopback)",
      { retryable: false },
    );
  const cache = new Map<string, AccessToken>();
  const now = () => (input.now ? input.now() : new Date()).getTime();
  return {
    async getToken(scopes) {
      const scope = Array.isArray(scopes) ? scopes[0] : scopes;
      const cached = scope && cache.get(scope);
      if (cached && cached.expiresOnTimestamp - now() > 5 * 60_000) return cached;
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: {
            authorization: `Bearer ${input.token}`,
            "content-type": "application/json",
            accept: "application/json",
          },
          body: JSON.stringify({ ...input.request, scope }),
          redirect: "error",
          signal: AbortSignal.timeout(input.timeoutMs ?? 15_000),
        });
      } catch (error) {
        throw new AppError(
          "CREDENTIAL_VENDING_FAILED",
          `The credential vending service at ${url.origin} did not answer (${(error as Error).name})`,
          { cause: error },
        );
      }
      if (!response.ok) {
        const status = response.status;
        const retryable = status === 429 || status >= 500;
        const reason =
          status === 401 || status === 403
            ? "refused Sightline's token"
            : status === 404
              ? "has no token for this subscription"
              : retryable
                ? "is unavailable"
                : "rejected the request";
        throw new AppError(
          "CREDENTIAL_VENDING_FAILED",
          `The credential vending service at ${url.origin} ${reason} (HTTP ${status}, scope ${scope})`,
          { retryable },
        );
      }
      const parsed = VendedAzureToken.safeParse(await response.json().catch(() => undefined));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AppError(
          "CREDENTIAL_VENDING_FAILED",
          `The credential vending service at ${url.origin} answered a malformed token: ${issue?.path.join(".") || "body"} ${issue?.message ?? "is invalid"}`,
          { retryable: false },
        );
      }
      const expiresOnTimestamp = Date.parse(parsed.data.expiresOn);
      if (expiresOnTimestamp - now() < MINIMUM_VALIDITY_MS)
        throw new AppError(
          "CREDENTIAL_EXPIRED",
          `The token vended by ${url.origin} expires at ${parsed.data.expiresOn}, too soon for a collection`,
          { retryable: true },
        );
      const token = { token: parsed.data.accessToken, expiresOnTimestamp };
      if (scope) cache.set(scope, token);
      return token;
    },
  };
}
