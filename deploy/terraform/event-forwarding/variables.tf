variable "event_endpoint" {
  description = "The endpoint that Sightline's event-source rotate answered (endpoint), e.g. https://sightline.example.com/events/aws."
  type        = string

  validation {
    condition     = can(regex("^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~-]+)*/events/aws$", var.event_endpoint))
    error_message = "event_endpoint must be https://<Sightline's host>/events/aws."
  }
}

variable "event_token" {
  description = "The token that Sightline's event-source rotate answered (token), shown only once. It is kept in the Terraform state and in the connection's Secrets Manager secret."
  type        = string
  sensitive   = true

  validation {
    condition     = length(var.event_token) >= 16 && length(var.event_token) <= 512
    error_message = "event_token must be 16 to 512 characters."
  }
}

variable "invocation_rate_limit_per_second" {
  description = "At most this many events per second are posted to Sightline; EventBridge holds back and retries the rest."
  type        = number
  default     = 10

  validation {
    condition     = var.invocation_rate_limit_per_second >= 1 && var.invocation_rate_limit_per_second <= 300
    error_message = "invocation_rate_limit_per_second must be between 1 and 300."
  }
}

variable "name" {
  description = "Name of the connection, API destination and rule (unique in the region)."
  type        = string
  default     = "sightline-events"

  validation {
    condition     = can(regex("^[A-Za-z0-9._-]{1,50}$", var.name))
    error_message = "name must be 1 to 50 characters of letters, digits and ._-."
  }
}

variable "tags" {
  description = "Tags for the rule, the queue and the role."
  type        = map(string)
  default     = {}
}
