import type { TokenCredential } from "@azure/core-auth";
import { ClientCertificateCredential, ClientSecretCredential } from "@azure/identity";
import { AppError } from "@sightline/domain";
import { type AzureEndpoints, isKnownAuthorityHost } from "../azure-clouds.ts";
import { type AzureHttpOptions, pipelineOptionsOf } from "../rest/azure-rest-client.ts";

/**
 * Sightline's own Entra ID application's secret: a client secret, or a certificate (a PEM
 * file, or PEM text, holding the certificate and its private key). Workload identity
 * federation needs no secret here: see the README.
 */
export type AppSecret =
  | { readonly kind: "secret"; readonly clientSecret: string }
  | { readonly kind: "certificate"; readonly certificatePath: string }
  | { readonly kind: "certificate-pem"; readonly certificate: string };

export interface AppCredentialInput {
  /** The customer's tenant (`auditorAuthConfig.tenantId`). */
  readonly tenantId: string;
  /** Sightline's multi-tenant application (`auditorAuthConfig.clientId`). */
  readonly clientId: string;
  readonly secret: AppSecret;
  readonly endpoints: AzureEndpoints;
  readonly http?: AzureHttpOptions;
}

/**
 * The `config` auditor method: Sightline's application, consented in the customer's tenant,
 * signs in there with the client-credentials grant (`@azure/identity`). Instance discovery
 * (Microsoft's check that the authority is a known cloud) is left on for the known clouds and
 * turned off for another authority host (a private cloud, or the test fake).
 */
export function createAppCredential(input: AppCredentialInput): TokenCredential {
  const options = {
    authorityHost: input.endpoints.authorityHost,
    disableInstanceDiscovery: !isKnownAuthorityHost(input.endpoints.authorityHost),
    ...pipelineOptionsOf(input.http ?? {}),
  };
  const { secret } = input;
  if (secret.kind === "secret") {
    if (!secret.clientSecret)
      throw new AppError("CREDENTIAL_INVALID", "Sightline's Azure client secret is empty", {
        retryable: false,
      });
    return new ClientSecretCredential(input.tenantId, input.clientId, secret.clientSecret, options);
  }
  if (secret.kind === "certificate")
    return new ClientCertificateCredential(
      input.tenantId,
      input.clientId,
      { certificatePath: secret.certificatePath },
      options,
    );
  return new ClientCertificateCredential(
    input.tenantId,
    input.clientId,
    { certificate: secret.certificate },
    options,
  );
}
