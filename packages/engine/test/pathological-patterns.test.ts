import { describe, expect, it } from "vitest";
import { authorize, createAccountModel } from "../src/index.ts";

// A customer's policy must never stall a worker: wildcard patterns that make a backtracking
// regular expression take seconds (or forever) are decided at once, in Resource, in policy
// variables and in StringLike conditions. (`bench/patterns.ts` measures them.)

const USER = "arn:aws:iam::111111111111:user/probe";
const modelWith = (statement: object) =>
  createAccountModel([
    {
      authorizationDetails: {
        UserDetailList: [
          {
            UserName: "probe",
            Arn: USER,
            UserPolicyList: [
              {
                PolicyName: "pattern",
                PolicyDocument: { Version: "2012-10-17", Statement: [statement] },
              },
            ],
          },
        ],
      },
      buckets: ["bucket", "home"],
    },
  ]);

describe("pathological wildcard patterns", () => {
  it("decides a Resource of many stars against a long ARN, both ways", () => {
    const model = modelWith({
      Effect: "Allow",
      Action: "s3:GetObject",
      Resource: "arn:aws:s3:::*-*-*-*-*-*-*-*-prod",
    });
    const request = (resource: string) =>
      authorize(model, { principal: USER, action: "s3:GetObject", resource }).decision;
    expect(request(`arn:aws:s3:::bucket/${"x-".repeat(2000)}`)).toBe("implicit-deny");
    expect(request(`arn:aws:s3:::bucket/${"x-".repeat(2000)}prod`)).toBe("allowed");
  });

  it("decides a Resource with a policy variable and many stars", () => {
    const model = modelWith({
      Effect: "Allow",
      Action: "s3:GetObject",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: an IAM policy variable
      Resource: "arn:aws:s3:::home/${aws:username}/*a*a*a*a*a*a*a*a*b",
    });
    const resource = `arn:aws:s3:::home/probe/${"a".repeat(3000)}`;
    expect(authorize(model, { principal: USER, action: "s3:GetObject", resource }).decision).toBe(
      "implicit-deny",
    );
    expect(
      authorize(model, { principal: USER, action: "s3:GetObject", resource: `${resource}b` })
        .decision,
    ).toBe("allowed");
  });

  it("decides a StringLike condition of many stars against a long value", () => {
    const model = modelWith({
      Effect: "Allow",
      Action: "s3:ListBucket",
      Resource: "*",
      Condition: { StringLike: { "s3:prefix": `${"*a".repeat(12)}*b` } },
    });
    const ask = (prefix: string) =>
      authorize(model, {
        principal: USER,
        action: "s3:ListBucket",
        resource: "arn:aws:s3:::bucket",
        context: { "s3:prefix": prefix },
      }).decision;
    expect(ask("a".repeat(4096))).toBe("implicit-deny");
    expect(ask(`${"a".repeat(4096)}b`)).toBe("allowed");
  });
});
