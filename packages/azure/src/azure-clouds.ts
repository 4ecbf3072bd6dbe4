/** The Azure clouds Sightline analyses: the providers `azure` and `azure-government`. */
export type AzureCloudName = "azure" | "azure-government";

/**
 * Where Sightline reaches one cloud. Every URL is configurable, so that tests (a loopback fake)
 * and sovereign or private clouds point elsewhere; the scopes are the audiences of the tokens,
 * which stay the cloud's own when only the URLs move.
 */
export interface AzureEndpoints {
  /** Azure Resource Manager, e.g. `https://management.azure.com`. */
  readonly armUrl: string;
  /** Microsoft Graph, e.g. `https://graph.microsoft.com`. */
  readonly graphUrl: string;
  /** Microsoft Entra ID's authority host, e.g. `https://login.microsoftonline.com`. */
  readonly authorityHost: string;
  /** Token scope for ARM, e.g. `https://management.azure.com/.default`. */
  readonly armScope: string;
  /** Token scope for Graph, e.g. `https://graph.microsoft.com/.default`. */
  readonly graphScope: string;
}

/** Microsoft's documented endpoints of the public cloud and of Azure Government. */
export const AZURE_CLOUD_ENDPOINTS: Readonly<Record<AzureCloudName, AzureEndpoints>> = {
  azure: {
    armUrl: "https://management.azure.com",
    graphUrl: "https://graph.microsoft.com",
    authorityHost: "https://login.microsoftonline.com",
    armScope: "https://management.azure.com/.default",
    graphScope: "https://graph.microsoft.com/.default",
  },
  "azure-government": {
    armUrl: "https://management.usgovcloudapi.net",
    graphUrl: "https://graph.microsoft.us",
    authorityHost: "https://login.microsoftonline.us",
    armScope: "https://management.usgovcloudapi.net/.default",
    graphScope: "https://graph.microsoft.us/.default",
  },
};

/** A cloud's endpoints with some of them replaced (tests, private clouds). */
export function endpointsOf(
  cloud: AzureCloudName,
  overrides: Partial<AzureEndpoints> = {},
): AzureEndpoints {
  const defaults = AZURE_CLOUD_ENDPOINTS[cloud];
  const trim = (url: string) => url.replace(/\/+$/, "");
  return {
    armUrl: trim(overrides.armUrl ?? defaults.armUrl),
    graphUrl: trim(overrides.graphUrl ?? defaults.graphUrl),
    authorityHost: trim(overrides.authorityHost ?? defaults.authorityHost),
    armScope: overrides.armScope ?? defaults.armScope,
    graphScope: overrides.graphScope ?? defaults.graphScope,
  };
}

/** The authority hosts MSAL knows: instance discovery is left on for these only. */
export function isKnownAuthorityHost(host: string): boolean {
  return Object.values(AZURE_CLOUD_ENDPOINTS).some(
    (e) => e.authorityHost === host.replace(/\/+$/, ""),
  );
}
