import { readFileSync } from "node:fs";
import { parsePolicyDocument } from "@sightline/engine";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { COLLECTOR_ACTIONS } from "../src/collect/collector-actions.ts";

const deploy = (path: string) =>
  readFileSync(new URL(`../../../deploy/${path}`, import.meta.url), "utf8");
const sorted = (actions: readonly string[]) => [...actions].sort();

interface Statement {
  Effect: string;
  Action: string[];
  Resource: string;
}

describe("the auditor role templates", () => {
  it("CloudFormation allows exactly COLLECTOR_ACTIONS, read-only, with the external ID", () => {
    const template = parse(deploy("aws/auditor-role.yaml"));
    const role = template.Resources.AuditorRole.Properties;
    const statements: Statement[] = role.Policies.flatMap(
      (policy: { PolicyDocument: { Statement: Statement[] } }) => policy.PolicyDocument.Statement,
    );
    expect(statements.map((statement) => [statement.Effect, statement.Resource])).toEqual([
      ["Allow", "*"],
    ]);
    expect(sorted(statements.flatMap((statement) => statement.Action))).toEqual(
      sorted(COLLECTOR_ACTIONS),
    );
    expect(role.ManagedPolicyArns).toBeUndefined();
    const trust = role.AssumeRolePolicyDocument.Statement[0];
    expect(trust.Condition.StringEquals["sts:ExternalId"]).toEqual({ Ref: "ExternalId" });
    expect(trust.Principal.AWS).toEqual({ Ref: "SightlinePrincipalArn" });
  });

  it("Terraform allows exactly COLLECTOR_ACTIONS, with the external ID", () => {
    const main = deploy("terraform/auditor-role/main.tf");
    const list = /collector_actions\s*=\s*\[([^\]]*)\]/.exec(main)?.[1] ?? "";
    const actions = [...list.matchAll(/"([^"]+)"/g)].map((match) => match[1] ?? "");
    expect(sorted(actions)).toEqual(sorted(COLLECTOR_ACTIONS));
    expect(main).toMatch(/actions\s+=\s+local\.collector_actions/);
    expect(main).toMatch(/variable\s+=\s+"sts:ExternalId"/);
    expect(main).not.toMatch(/policy_arn|SecurityAudit|ReadOnlyAccess/);
  });

  it("the StackSet deploys the same template to organizational units", () => {
    const stackSet = parse(deploy("aws/auditor-role-stackset.yaml")).Resources.AuditorRoleStackSet
      .Properties;
    expect(stackSet.PermissionModel).toBe("SERVICE_MANAGED");
    expect(stackSet.AutoDeployment.Enabled).toBe(true);
    const keys = stackSet.Parameters.map(
      (parameter: { ParameterKey: string }) => parameter.ParameterKey,
    );
    expect(keys.sort()).toEqual(
      Object.keys(parse(deploy("aws/auditor-role.yaml")).Parameters)
        .filter((key) => key !== "RoleName")
        .sort(),
    );
  });
});

describe("the inbox policies", () => {
  const filled = (path: string) =>
    deploy(path)
      .replaceAll("SIGHTLINE_ACCOUNT_ID", "999999999999")
      .replaceAll("SIGHTLINE_ROLE_NAME", "SightlineService")
      .replaceAll("PARTNER_ACCOUNT_ID", "111122223333")
      .replaceAll("INBOX_REGION", "us-east-1")
      .replaceAll("INBOX_BUCKET", "partner-secure-inbox")
      .replaceAll("INBOX_KEY_ID", "1234abcd-12ab-34cd-56ef-1234567890ab")
      .replaceAll("CUSTOMER_IDS", "P123456-*")
      .replaceAll("OWNER_ID", "P123456");

  for (const path of ["aws/inbox-bucket-policy.json", "aws/inbox-key-policy.json"]) {
    it(`${path} is a valid policy once its placeholders are filled`, () => {
      const parsed = parsePolicyDocument(JSON.parse(filled(path)), path);
      expect(parsed.issues).toEqual([]);
      expect(parsed.statements.length).toBeGreaterThan(1);
    });
  }

  it("lets Sightline's principal put objects only under the inbox key", () => {
    const policy = JSON.parse(filled("aws/inbox-bucket-policy.json"));
    const bySid = (sid: string) => policy.Statement.find((s: { Sid: string }) => s.Sid === sid);
    expect(bySid("AllowSightlineToDeliverReports").Action).toContain("s3:PutObject");
    expect(
      bySid("DenySightlineWritesUnderAnotherKey").Condition.StringNotEquals[
        "s3:x-amz-server-side-encryption-aws-kms-key-id"
      ],
    ).toBe("arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab");
  });
});
