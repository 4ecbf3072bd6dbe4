import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { AWS_EVENT_TOKEN_HEADER, awsEventRulePattern } from "@sightline/domain";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  type CloudFormationSpec,
  checkTemplate,
  loadCloudFormationSpec,
} from "./support/check-cloudformation.ts";
import { readTerraformModule, unresolvedReferences } from "./support/check-terraform.ts";

const deployPath = (path: string) =>
  fileURLToPath(new URL(`../../../deploy/${path}`, import.meta.url));
const deploy = (path: string) => readFileSync(deployPath(path), "utf8");
const template = () => parse(deploy("aws/event-forwarding.yaml"));
const stackSet = () => parse(deploy("aws/event-forwarding-stackset.yaml"));
/** A Terraform expression as the HCL parser writes it into JSON: `${…}`. */
const hcl = (expression: string) => `\${${expression}}`;
const terraform = () => readTerraformModule(deployPath("terraform/event-forwarding"));

let spec: CloudFormationSpec;
beforeAll(async () => {
  spec = await loadCloudFormationSpec();
});

describe("the event forwarding templates carry awsEventRulePattern()", () => {
  it("in the CloudFormation template's rule", () => {
    const rule = template().Resources.ForwardingRule.Properties;
    expect(rule.EventPattern).toEqual(awsEventRulePattern());
    expect(rule.EventBusName).toBe("default");
  });

  it("in the StackSet, whose TemplateBody is event-forwarding.yaml", () => {
    const body = parse(stackSet().Resources.EventForwardingStackSet.Properties.TemplateBody);
    expect(body).toEqual(template());
    expect(body.Resources.ForwardingRule.Properties.EventPattern).toEqual(awsEventRulePattern());
  });

  it("in the Terraform module's rule", async () => {
    const module = await terraform();
    expect(module.locals[0]?.event_pattern).toEqual(awsEventRulePattern());
    const rule = module.resource.aws_cloudwatch_event_rule?.sightline?.[0];
    expect(rule?.event_pattern).toBe(hcl("jsonencode(local.event_pattern)"));
    expect(rule?.event_bus_name).toBe("default");
  });
});

describe("the CloudFormation templates, checked against CloudFormation's resource specification", () => {
  it("event-forwarding.yaml: known types and properties, required ones set, references resolve", () => {
    const resources = template().Resources;
    expect(
      Object.values(resources)
        .map((r) => (r as { Type: string }).Type)
        .sort(),
    ).toEqual([
      "AWS::Events::ApiDestination",
      "AWS::Events::Connection",
      "AWS::Events::Rule",
      "AWS::IAM::Role",
      "AWS::SQS::Queue",
      "AWS::SQS::QueuePolicy",
    ]);
    expect(checkTemplate(spec, template())).toEqual([]);
  });

  it("event-forwarding-stackset.yaml, and the template it carries", () => {
    expect(checkTemplate(spec, stackSet())).toEqual([]);
    const set = stackSet().Resources.EventForwardingStackSet;
    expect(set.Type).toBe("AWS::CloudFormation::StackSet");
    expect(checkTemplate(spec, parse(set.Properties.TemplateBody))).toEqual([]);
  });

  it("refuses a misspelt or missing property, an unknown type, value or attribute", () => {
    const broken = template();
    const destination = broken.Resources.EventApiDestination;
    destination.Properties.HttpVerb = "POST";
    delete destination.Properties.InvocationEndpoint;
    broken.Resources.ForwardingRule.Properties.State = "ON";
    broken.Resources.ForwardingRule.Properties.Targets[0].RetryPolicy.MaxAge = 60;
    broken.Resources.EventConnection.Properties.AuthParameters.ApiKeyAuthParameters.Name = "x";
    broken.Resources.DeadLetterQueuePolicy.Type = "AWS::SQS::QueuePolicies";
    broken.Outputs.RuleArn.Value = { "Fn::GetAtt": ["ForwardingRule", "Name"] };
    broken.Resources.InvokeRole.Properties.Description = { Ref: "Nothing" };
    expect(checkTemplate(spec, broken).sort()).toEqual([
      "Outputs.RuleArn.Value: Fn::GetAtt ForwardingRule.Name names no attribute",
      "Resources.DeadLetterQueuePolicy.Type: AWS::SQS::QueuePolicies is no CloudFormation resource type",
      "Resources.EventApiDestination.Properties.HttpVerb: is no property of this type",
      "Resources.EventApiDestination.Properties.InvocationEndpoint: is required",
      "Resources.EventConnection.Properties.AuthParameters.ApiKeyAuthParameters.Name: is no property of this type",
      "Resources.ForwardingRule.Properties.State: must be one of DISABLED, ENABLED, ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS",
      "Resources.ForwardingRule.Properties.Targets.0.RetryPolicy.MaxAge: is no property of this type",
      "Resources.InvokeRole.Properties.Description: Ref Nothing names nothing",
    ]);
  });
});

describe("what the CloudFormation template sets up", () => {
  const resources = () => template().Resources;

  it("sends the token, never echoed, in Sightline's header, POSTed to /events/aws", () => {
    const { Parameters } = template();
    expect(Parameters.EventToken.NoEcho).toBe(true);
    const auth = resources().EventConnection.Properties;
    expect(auth.AuthorizationType).toBe("API_KEY");
    expect(auth.AuthParameters.ApiKeyAuthParameters).toEqual({
      ApiKeyName: AWS_EVENT_TOKEN_HEADER,
      ApiKeyValue: { Ref: "EventToken" },
    });
    const destination = resources().EventApiDestination.Properties;
    expect(destination.HttpMethod).toBe("POST");
    expect(destination.InvocationRateLimitPerSecond).toEqual({
      Ref: "InvocationRateLimitPerSecond",
    });
    const endpoint = new RegExp(Parameters.SightlineEventEndpoint.AllowedPattern);
    expect(endpoint.test("https://sightline.example.com/events/aws")).toBe(true);
    expect(endpoint.test("https://example.com:8443/sightline/events/aws")).toBe(true);
    expect(endpoint.test("http://sightline.example.com/events/aws")).toBe(false);
    expect(endpoint.test("https://sightline.example.com/events/aws?x=1")).toBe(false);
  });

  it("retries for 24 hours, then keeps the event in a dead-letter queue only the rule may write", () => {
    const [target] = resources().ForwardingRule.Properties.Targets;
    expect(target.RetryPolicy.MaximumEventAgeInSeconds).toBe(24 * 3600);
    expect(target.DeadLetterConfig.Arn).toEqual({ "Fn::GetAtt": ["DeadLetterQueue", "Arn"] });
    const [statement] = resources().DeadLetterQueuePolicy.Properties.PolicyDocument.Statement;
    expect(statement.Principal).toEqual({ Service: "events.amazonaws.com" });
    expect(statement.Condition.ArnEquals["aws:SourceArn"]).toEqual({
      "Fn::GetAtt": ["ForwardingRule", "Arn"],
    });
  });

  it("lets EventBridge, for this account only, invoke exactly this API destination", () => {
    const role = resources().InvokeRole.Properties;
    const [trust] = role.AssumeRolePolicyDocument.Statement;
    expect(trust.Principal).toEqual({ Service: "events.amazonaws.com" });
    expect(trust.Condition.StringEquals["aws:SourceAccount"]).toEqual({ Ref: "AWS::AccountId" });
    const statements = role.Policies.flatMap(
      (policy: { PolicyDocument: { Statement: unknown[] } }) => policy.PolicyDocument.Statement,
    );
    expect(statements).toEqual([
      {
        Effect: "Allow",
        Action: "events:InvokeApiDestination",
        Resource: { "Fn::GetAtt": ["EventApiDestination", "Arn"] },
      },
    ]);
    expect(resources().ForwardingRule.Properties.Targets[0].RoleArn).toEqual({
      "Fn::GetAtt": ["InvokeRole", "Arn"],
    });
  });

  it("the StackSet passes every parameter through, to the chosen regions of one account", () => {
    const set = stackSet();
    const properties = set.Resources.EventForwardingStackSet.Properties;
    expect(set.Parameters.EventToken.NoEcho).toBe(true);
    expect(properties.PermissionModel).toBe("SELF_MANAGED");
    const keys = properties.Parameters.map((p: { ParameterKey: string }) => p.ParameterKey);
    expect(keys.sort()).toEqual(Object.keys(template().Parameters).sort());
    expect(set.Parameters.Regions.Default).toContain("us-east-1");
    expect(properties.StackInstancesGroup[0].Regions).toEqual({ Ref: "Regions" });
  });

  it("says that IAM's events arrive in us-east-1, S3's and KMS's in their own regions", () => {
    for (const text of [
      template().Description,
      stackSet().Description,
      deploy("terraform/event-forwarding/main.tf"),
      deploy("README.md"),
    ]) {
      expect(text).toMatch(/us-east-1/);
      expect(text).toMatch(/S3 and KMS events arrive in the region/);
    }
  });
});

describe("the Terraform module", () => {
  it("parses, with the resources of the CloudFormation template, its references resolved", async () => {
    const module = await terraform();
    expect(Object.keys(module.resource).sort()).toEqual([
      "aws_cloudwatch_event_api_destination",
      "aws_cloudwatch_event_connection",
      "aws_cloudwatch_event_rule",
      "aws_cloudwatch_event_target",
      "aws_iam_role",
      "aws_iam_role_policy",
      "aws_sqs_queue",
      "aws_sqs_queue_policy",
    ]);
    expect(unresolvedReferences(module)).toEqual([]);
  });

  it("sends the sensitive token in Sightline's header, retries 24 hours, dead letters kept", async () => {
    const module = await terraform();
    expect(module.variable.event_token?.[0]?.sensitive).toBe(true);
    const connection = module.resource.aws_cloudwatch_event_connection?.sightline?.[0] as {
      auth_parameters: { api_key: { key: string; value: string }[] }[];
    };
    expect(connection.auth_parameters[0]?.api_key[0]).toEqual({
      key: AWS_EVENT_TOKEN_HEADER,
      value: hcl("var.event_token"),
    });
    const destination = module.resource.aws_cloudwatch_event_api_destination?.sightline?.[0];
    expect(destination?.http_method).toBe("POST");
    const target = module.resource.aws_cloudwatch_event_target?.sightline?.[0] as {
      retry_policy: { maximum_event_age_in_seconds: number }[];
      dead_letter_config: { arn: string }[];
      role_arn: string;
    };
    expect(target.retry_policy[0]?.maximum_event_age_in_seconds).toBe(86400);
    expect(target.dead_letter_config[0]?.arn).toBe(hcl("aws_sqs_queue.dead_letters.arn"));
    expect(target.role_arn).toBe(hcl("aws_iam_role.invoke.arn"));
    const invoke = JSON.stringify(module.data.aws_iam_policy_document?.invoke);
    expect(invoke).toContain("events:InvokeApiDestination");
    expect(invoke).toContain(hcl("aws_cloudwatch_event_api_destination.sightline.arn"));
  });

  it("the checks refuse broken HCL and a reference to nothing", async () => {
    await expect(readTerraformModule(deployPath("terraform/auditor-role"))).resolves.toBeDefined();
    const { parse: parseHcl } = await import("@cdktf/hcl2json");
    await expect(parseHcl("main.tf", 'resource "aws_sqs_queue" "q" {')).rejects.toThrow(
      /main\.tf:1/,
    );
    const module = await terraform();
    const target = module.resource.aws_cloudwatch_event_target?.sightline?.[0] ?? {};
    target.role_arn = hcl("aws_iam_role.missing.arn");
    target.arn = hcl("var.nothing");
    expect(unresolvedReferences(module).sort()).toEqual(["aws_iam_role.missing", "var.nothing"]);
  });
});
