output "role_arn" {
  description = "Configure this as auditorAuthConfig.roleArn in Sightline."
  value       = aws_iam_role.auditor.arn
}

output "role_name" {
  description = "Name of the auditor role."
  value       = aws_iam_role.auditor.name
}
