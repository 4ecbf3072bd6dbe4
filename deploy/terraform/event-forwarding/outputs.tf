output "rule_arn" {
  description = "The rule that forwards the events."
  value       = aws_cloudwatch_event_rule.sightline.arn
}

output "api_destination_arn" {
  description = "The API destination that posts them to Sightline."
  value       = aws_cloudwatch_event_api_destination.sightline.arn
}

output "dead_letter_queue_url" {
  description = "Events not delivered within 24 hours."
  value       = aws_sqs_queue.dead_letters.id
}
