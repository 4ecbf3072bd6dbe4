/**
 * Documented exceptions to the Azure built-in-role checks (scripts/azure-roles.ts), keyed by label
 * id then operation (the map's spelling): operations a role grants whose capability differs from
 * the role's label for a stated reason.
 */
const REFRESH_KEYS =
  "regenerating the endpoint keys cuts off every holder of the old keys: administration, though Cognitive Services Data Contributor grants it";

export const AZURE_BUILT_IN_ROLE_EXCEPTIONS: Readonly<
  Record<string, Readonly<Record<string, string>>>
> = {
  "data-reader": {
    "Microsoft.DurableTask/schedulers/taskhubs/orchestrations/metadata/read":
      "orchestration metadata (status, timestamps) without inputs or outputs: read-config, as Key Vault's readMetadata",
  },
  reader: {},
  "data-contributor": {
    "Microsoft.DurableTask/schedulers/taskhubs/orchestrations/metadata/read":
      "orchestration metadata (status, timestamps) without inputs or outputs: read-config, as Key Vault's readMetadata",
    "Microsoft.CognitiveServices/accounts/QnAMaker/endpointkeys/refreshkeys/action": REFRESH_KEYS,
    "Microsoft.CognitiveServices/accounts/QnAMaker.v2/endpointkeys/refreshkeys/action":
      REFRESH_KEYS,
    "Microsoft.CognitiveServices/accounts/TextAnalytics/QnAMaker/endpointkeys/refreshkeys/action":
      REFRESH_KEYS,
  },
  "authorization-admin": {},
};
