terraform {
  required_version = ">= 1.3"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.25"
    }
  }
}

# Sightline's event forwarding in the provider's region. IAM and Organizations are global:
# CloudTrail delivers their events to EventBridge in us-east-1 only, so one instance of this
# module must run there. S3 and KMS events arrive in the region of the bucket or key: add an
# instance (a provider alias) for each region whose buckets and keys Sightline should follow.

# The rule's pattern is awsEventRulePattern() of @sightline/domain; a test in packages/aws
# keeps them equal, and the CloudFormation templates carry the same.
locals {
  event_pattern = {
    source = [
      "aws.iam",
      "aws.kms",
      "aws.organizations",
      "aws.s3",
    ]
    "detail-type" = [
      "AWS API Call via CloudTrail",
    ]
    detail = {
      eventSource = [
        "iam.amazonaws.com",
        "kms.amazonaws.com",
        "organizations.amazonaws.com",
        "s3.amazonaws.com",
      ]
      eventName = [
        "AddUserToGroup",
        "AttachGroupPolicy",
        "AttachPolicy",
        "AttachRolePolicy",
        "AttachUserPolicy",
        "CancelKeyDeletion",
        "ChangePassword",
        "CreateAccessKey",
        "CreateBucket",
        "CreateGroup",
        "CreateKey",
        "CreateLoginProfile",
        "CreatePolicy",
        "CreatePolicyVersion",
        "CreateRole",
        "CreateServiceLinkedRole",
        "CreateUser",
        "DeleteAccessKey",
        "DeleteBucket",
        "DeleteBucketPolicy",
        "DeleteGroup",
        "DeleteGroupPolicy",
        "DeleteLoginProfile",
        "DeletePolicy",
        "DeletePolicyVersion",
        "DeleteRole",
        "DeleteRolePermissionsBoundary",
        "DeleteRolePolicy",
        "DeleteServiceLinkedRole",
        "DeleteUser",
        "DeleteUserPermissionsBoundary",
        "DeleteUserPolicy",
        "DetachGroupPolicy",
        "DetachPolicy",
        "DetachRolePolicy",
        "DetachUserPolicy",
        "DisableKey",
        "DisablePolicyType",
        "EnableKey",
        "EnablePolicyType",
        "MoveAccount",
        "PutBucketPolicy",
        "PutGroupPolicy",
        "PutKeyPolicy",
        "PutRolePermissionsBoundary",
        "PutRolePolicy",
        "PutUserPermissionsBoundary",
        "PutUserPolicy",
        "RemoveUserFromGroup",
        "ReplicateKey",
        "ScheduleKeyDeletion",
        "SetDefaultPolicyVersion",
        "TagRole",
        "TagUser",
        "UntagRole",
        "UntagUser",
        "UpdateAccessKey",
        "UpdateAssumeRolePolicy",
        "UpdateGroup",
        "UpdateLoginProfile",
        "UpdatePolicy",
        "UpdateUser",
      ]
    }
  }
}

resource "aws_cloudwatch_event_connection" "sightline" {
  name               = var.name
  description        = "Sightline's event token, sent with every event."
  authorization_type = "API_KEY"

  auth_parameters {
    api_key {
      key   = "x-sightline-event-token"
      value = var.event_token
    }
  }
}

resource "aws_cloudwatch_event_api_destination" "sightline" {
  name                             = var.name
  description                      = "Sightline's POST /events/aws."
  invocation_endpoint              = var.event_endpoint
  http_method                      = "POST"
  invocation_rate_limit_per_second = var.invocation_rate_limit_per_second
  connection_arn                   = aws_cloudwatch_event_connection.sightline.arn
}

# Events EventBridge could not deliver within 24 hours land here for 14 days.
resource "aws_sqs_queue" "dead_letters" {
  name                      = "${var.name}-dead-letters"
  message_retention_seconds = 1209600
  sqs_managed_sse_enabled   = true
  tags                      = var.tags
}

data "aws_iam_policy_document" "dead_letters" {
  statement {
    sid       = "EventBridgeDeadLetters"
    effect    = "Allow"
    actions   = ["sqs:SendMessage"]
    resources = [aws_sqs_queue.dead_letters.arn]

    principals {
      type        = "Service"
      identifiers = ["events.amazonaws.com"]
    }

    condition {
      test     = "ArnEquals"
      variable = "aws:SourceArn"
      values   = [aws_cloudwatch_event_rule.sightline.arn]
    }
  }
}

resource "aws_sqs_queue_policy" "dead_letters" {
  queue_url = aws_sqs_queue.dead_letters.id
  policy    = data.aws_iam_policy_document.dead_letters.json
}

data "aws_caller_identity" "current" {}

data "aws_iam_policy_document" "trust" {
  statement {
    effect  = "Allow"
    actions = ["sts:AssumeRole"]

    principals {
      type        = "Service"
      identifiers = ["events.amazonaws.com"]
    }

    condition {
      test     = "StringEquals"
      variable = "aws:SourceAccount"
      values   = [data.aws_caller_identity.current.account_id]
    }
  }
}

data "aws_iam_policy_document" "invoke" {
  statement {
    effect    = "Allow"
    actions   = ["events:InvokeApiDestination"]
    resources = [aws_cloudwatch_event_api_destination.sightline.arn]
  }
}

# IAM is global: a prefix, not a name, so that the module's instances in several regions coexist.
resource "aws_iam_role" "invoke" {
  name_prefix        = "sightline-events-"
  description        = "Lets this account's EventBridge rule post events to Sightline."
  assume_role_policy = data.aws_iam_policy_document.trust.json
  tags               = var.tags
}

resource "aws_iam_role_policy" "invoke" {
  name   = "InvokeSightlineApiDestination"
  role   = aws_iam_role.invoke.id
  policy = data.aws_iam_policy_document.invoke.json
}

resource "aws_cloudwatch_event_rule" "sightline" {
  name           = var.name
  description    = "CloudTrail events of the changes Sightline analyses, forwarded to Sightline."
  event_bus_name = "default"
  event_pattern  = jsonencode(local.event_pattern)
  tags           = var.tags
}

resource "aws_cloudwatch_event_target" "sightline" {
  rule           = aws_cloudwatch_event_rule.sightline.name
  event_bus_name = "default"
  target_id      = "sightline"
  arn            = aws_cloudwatch_event_api_destination.sightline.arn
  role_arn       = aws_iam_role.invoke.arn

  retry_policy {
    maximum_event_age_in_seconds = 86400
    maximum_retry_attempts       = 185
  }

  dead_letter_config {
    arn = aws_sqs_queue.dead_letters.arn
  }
}
