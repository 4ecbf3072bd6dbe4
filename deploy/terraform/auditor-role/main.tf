terraform {
  required_version = ">= 1.3"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.0"
    }
  }
}

# Exactly the actions Sightline's collector calls (COLLECTOR_ACTIONS in packages/aws); a test
# in packages/aws checks this list against the code and the CloudFormation template.
locals {
  collector_actions = [
    "ec2:DescribeRegions",
    "iam:GenerateCredentialReport",
    "iam:GetAccessKeyLastUsed",
    "iam:GetAccountAuthorizationDetails",
    "iam:GetCredentialReport",
    "iam:GetGroup",
    "iam:GetGroupPolicy",
    "iam:GetLoginProfile",
    "iam:GetPolicy",
    "iam:GetPolicyVersion",
    "iam:GetRole",
    "iam:GetRolePolicy",
    "iam:GetUser",
    "iam:GetUserPolicy",
    "iam:ListAccessKeys",
    "iam:ListAttachedGroupPolicies",
    "iam:ListAttachedRolePolicies",
    "iam:ListAttachedUserPolicies",
    "iam:ListGroupPolicies",
    "iam:ListGroupsForUser",
    "iam:ListPolicyVersions",
    "iam:ListRolePolicies",
    "iam:ListUserPolicies",
    "kms:DescribeKey",
    "kms:GetKeyPolicy",
    "kms:ListAliases",
    "kms:ListKeys",
    "kms:ListResourceTags",
    "organizations:DescribeOrganization",
    "organizations:DescribePolicy",
    "organizations:ListParents",
    "organizations:ListPoliciesForTarget",
    "organizations:ListRoots",
    "s3:GetBucketLocation",
    "s3:GetBucketPolicy",
    "s3:GetBucketTagging",
    "s3:ListAllMyBuckets",
    "sts:GetCallerIdentity",
  ]
}

data "aws_iam_policy_document" "trust" {
  statement {
    sid     = "TrustSightlineWithExternalId"
    effect  = "Allow"
    actions = ["sts:AssumeRole"]

    principals {
      type        = "AWS"
      identifiers = [var.sightline_principal_arn]
    }

    condition {
      test     = "StringEquals"
      variable = "sts:ExternalId"
      values   = [var.external_id]
    }
  }
}

data "aws_iam_policy_document" "collector" {
  statement {
    sid       = "ReadAccessConfiguration"
    effect    = "Allow"
    actions   = local.collector_actions
    resources = ["*"]
  }
}

resource "aws_iam_role" "auditor" {
  name                 = var.role_name
  description          = "Read-only access for Sightline's access analysis."
  assume_role_policy   = data.aws_iam_policy_document.trust.json
  max_session_duration = 3600
  tags                 = var.tags
}

resource "aws_iam_role_policy" "collector" {
  name   = "SightlineCollector"
  role   = aws_iam_role.auditor.id
  policy = data.aws_iam_policy_document.collector.json
}
