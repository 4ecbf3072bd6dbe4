#!/usr/bin/env bash
# Grants Sightline's multi-tenant Entra ID application what it needs to analyse one Azure
# subscription, and nothing more (see README.md):
#   1. its service principal in this tenant (the application is Sightline's, registered in
#      Sightline's tenant; this creates its local instance here),
#   2. admin consent to three Microsoft Graph application permissions, read-only:
#      GroupMember.Read.All, User.Read.All, Application.Read.All,
#   3. the built-in Reader role on the subscription.
#
# Run it signed in (`az login --tenant <tenant>`) as someone who may grant admin consent to
# application permissions (Privileged Role Administrator, or Global Administrator) and assign
# roles on the subscription (Owner or User Access Administrator).
#
#   deploy/azure/grant-sightline.sh <sightline-client-id> <subscription-id>
#
# Azure Government: `az cloud set --name AzureUSGovernment` first; the script is the same.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <sightline-client-id> <subscription-id>" >&2
  exit 2
fi
SIGHTLINE_CLIENT_ID="$1"
SUBSCRIPTION_ID="$2"
# Microsoft Graph's application ID, the same in every tenant and cloud.
GRAPH_APP_ID="00000003-0000-0000-c000-000000000000"
GRAPH_PERMISSIONS=(GroupMember.Read.All User.Read.All Application.Read.All)
GRAPH_URL="$(az cloud show --query endpoints.microsoftGraphResourceId -o tsv)"
GRAPH_URL="${GRAPH_URL%/}"

# 1. Sightline's service principal in this tenant (kept when it exists).
SP_ID="$(az ad sp show --id "$SIGHTLINE_CLIENT_ID" --query id -o tsv 2>/dev/null || true)"
if [[ -z "$SP_ID" ]]; then
  SP_ID="$(az ad sp create --id "$SIGHTLINE_CLIENT_ID" --query id -o tsv)"
fi
echo "Sightline's service principal: $SP_ID"

# 2. Admin consent to the Graph application permissions: one app role assignment each.
GRAPH_SP_ID="$(az ad sp show --id "$GRAPH_APP_ID" --query id -o tsv)"
for permission in "${GRAPH_PERMISSIONS[@]}"; do
  ROLE_ID="$(az ad sp show --id "$GRAPH_APP_ID" \
    --query "appRoles[?value=='$permission' && contains(allowedMemberTypes, 'Application')].id | [0]" -o tsv)"
  EXISTING="$(az rest --method GET \
    --url "$GRAPH_URL/v1.0/servicePrincipals/$SP_ID/appRoleAssignments" \
    --query "value[?appRoleId=='$ROLE_ID'].id | [0]" -o tsv)"
  if [[ -n "$EXISTING" ]]; then
    echo "Graph $permission: already granted"
    continue
  fi
  az rest --method POST \
    --url "$GRAPH_URL/v1.0/servicePrincipals/$GRAPH_SP_ID/appRoleAssignedTo" \
    --headers "Content-Type=application/json" \
    --body "{\"principalId\":\"$SP_ID\",\"resourceId\":\"$GRAPH_SP_ID\",\"appRoleId\":\"$ROLE_ID\"}" \
    --output none
  echo "Graph $permission: granted"
done

# 3. Reader on the subscription (role definition acdd72a7-3385-48ef-bd42-f606fba81ae7).
az role assignment create \
  --assignee-object-id "$SP_ID" --assignee-principal-type ServicePrincipal \
  --role "Reader" --scope "/subscriptions/$SUBSCRIPTION_ID" --output none
echo "Reader on /subscriptions/$SUBSCRIPTION_ID: assigned"

TENANT_ID="$(az account show --query tenantId -o tsv)"
echo
echo "Configure the subscription in Sightline (endpoint 9) with:"
echo "  \"provider\": \"azure\", \"accountId\": \"$SUBSCRIPTION_ID\", \"auditorAuthMethod\": \"config\","
echo "  \"auditorAuthConfig\": { \"tenantId\": \"$TENANT_ID\", \"clientId\": \"$SIGHTLINE_CLIENT_ID\" }"
