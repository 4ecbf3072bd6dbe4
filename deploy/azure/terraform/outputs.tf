data "azuread_client_config" "current" {}

output "service_principal_id" {
  description = "Object ID of Sightline's service principal in the tenant"
  value       = azuread_service_principal.sightline.object_id
}

output "auditor_auth_config" {
  description = "The auditorAuthConfig to configure in Sightline (endpoint 9)"
  value = {
    tenantId = data.azuread_client_config.current.tenant_id
    clientId = var.sightline_client_id
  }
}
