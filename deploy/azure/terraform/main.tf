# Grants Sightline's multi-tenant Entra ID application what it needs to analyse one Azure
# subscription, and nothing more (see ../README.md): its service principal in the tenant,
# admin consent to three read-only Microsoft Graph application permissions, Reader on the
# subscription. The caller configures the azuread and azurerm providers (tenant, cloud).

locals {
  # The least that reads group membership and the principals holding role assignments.
  graph_permissions = ["GroupMember.Read.All", "User.Read.All", "Application.Read.All"]
}

data "azuread_application_published_app_ids" "well_known" {}

resource "azuread_service_principal" "msgraph" {
  client_id    = data.azuread_application_published_app_ids.well_known.result["MicrosoftGraph"]
  use_existing = true
}

# Sightline's service principal in this tenant: the local instance of its application.
resource "azuread_service_principal" "sightline" {
  client_id    = var.sightline_client_id
  use_existing = true
}

# Admin consent to each Graph application permission is an app role assignment.
resource "azuread_app_role_assignment" "graph" {
  for_each            = toset(local.graph_permissions)
  app_role_id         = azuread_service_principal.msgraph.app_role_ids[each.value]
  principal_object_id = azuread_service_principal.sightline.object_id
  resource_object_id  = azuread_service_principal.msgraph.object_id
}

resource "azurerm_role_assignment" "reader" {
  scope                = "/subscriptions/${var.subscription_id}"
  role_definition_name = "Reader"
  principal_id         = azuread_service_principal.sightline.object_id
  principal_type       = "ServicePrincipal"
  description          = "Sightline reads the subscription's role configuration and resources"
}
