import { vendingServiceUrl } from "@sightline/domain";
import type { TemporaryCredentials } from "../aws-credentials.ts";
import { callVendingService } from "./call-vending-service.ts";
import { requireValidity } from "./require-validity.ts";
import { VendedCredentials, type VendingRequest } from "./vended-credentials.ts";

export interface FetchVendedCredentialsInput {
  /** The vending endpoint. HTTPS; plain HTTP is accepted only on loopback, for tests. */
  readonly url: string;
  /** Sightline's bearer token for that service. */
  readonly token: string;
  readonly request: VendingRequest;
  /** Default 15 s. */
  readonly timeoutMs?: number;
  /** Default: the current time. */
  readonly now?: Date;
}

/**
 * The `cvs` auditor method: POSTs the request as JSON with `Authorization: Bearer <token>` and
 * expects `{ accessKeyId, secretAccessKey, sessionToken, expiration }` (see README).
 */
export async function fetchVendedCredentials(
  input: FetchVendedCredentialsInput,
): Promise<TemporaryCredentials> {
  const url = vendingServiceUrl(input.url);
  const vended = await callVendingService({
    url,
    token: input.token,
    body: input.request,
    schema: VendedCredentials,
    ...(input.timeoutMs !== undefined && { timeoutMs: input.timeoutMs }),
    wording: { notFound: "credentials for this account", malformed: "malformed credentials" },
  });
  const credentials = {
    accessKeyId: vended.accessKeyId,
    secretAccessKey: vended.secretAccessKey,
    sessionToken: vended.sessionToken,
    expiration: new Date(vended.expiration),
  };
  requireValidity(credentials.expiration, input.now, `vended by ${url.origin}`, true);
  return credentials;
}
