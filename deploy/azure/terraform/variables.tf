variable "sightline_client_id" {
  description = "Application (client) ID of Sightline's multi-tenant application, given by the Sightline operator"
  type        = string
}

variable "subscription_id" {
  description = "The subscription Sightline analyses"
  type        = string
}
