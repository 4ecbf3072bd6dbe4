variable "sightline_principal_arn" {
  description = "ARN of the principal Sightline runs as, given by your Sightline operator."
  type        = string

  validation {
    condition     = can(regex("^arn:aws[a-z-]*:iam::[0-9]{12}:(root|role/.+|user/.+)$", var.sightline_principal_arn))
    error_message = "sightline_principal_arn must be an IAM role, user or account root ARN."
  }
}

variable "external_id" {
  description = "The external ID configured for this account in Sightline (auditorAuthConfig.externalId)."
  type        = string

  validation {
    condition     = can(regex("^[A-Za-z0-9_+=,.@:/-]{2,1224}$", var.external_id))
    error_message = "external_id must be 2 to 1224 characters of letters, digits and _+=,.@:/-."
  }
}

variable "role_name" {
  description = "Name of the role; configure its ARN in Sightline (auditorAuthConfig.roleArn)."
  type        = string
  default     = "SightlineAuditor"
}

variable "tags" {
  description = "Tags for the role."
  type        = map(string)
  default     = {}
}
