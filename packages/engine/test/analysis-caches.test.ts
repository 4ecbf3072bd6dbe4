import { listAwsActions } from "@sightline/capabilities";
import { describe, expect, it } from "vitest";
import { ActionIndex, analyzeAccount, createAccountModel } from "../src/index.ts";

// Every cache lives on the model, the index or one analysis, keyed by what its result depends
// on: analysing one model with two catalogues gives each catalogue's own answer.

const doc = (...Statement: unknown[]) => ({ Version: "2012-10-17", Statement });
const model = () =>
  createAccountModel([
    {
      authorizationDetails: {
        UserDetailList: [
          {
            UserName: "reader",
            Arn: "arn:aws:iam::111111111111:user/reader",
            UserPolicyList: [
              {
                PolicyName: "read",
                PolicyDocument: doc({
                  Effect: "Allow",
                  Action: ["s3:GetObject", "kms:Decrypt"],
                  Resource: "*",
                }),
              },
            ],
          },
        ],
      },
    },
  ]);

const grants = (analysis: ReturnType<typeof analyzeAccount>) =>
  [...analysis.principalAccessSummaries()].map((row) => `${row.service}/${row.capability}`).sort();

describe("analysis caches", () => {
  it("answers from each analysis's own catalogue, whatever ran before on the same model", () => {
    const shared = model();
    const all = listAwsActions();
    const iamOnly = new ActionIndex(all.filter((action) => action.prefix === "iam"));
    const full = new ActionIndex(all);
    expect(grants(analyzeAccount(shared, { actionIndex: iamOnly }))).toEqual([]);
    expect(grants(analyzeAccount(shared, { actionIndex: full }))).toEqual([
      "KMS/read-data",
      "S3/read-data",
    ]);
    // And the other way round, on a fresh model.
    const other = model();
    expect(grants(analyzeAccount(other, { actionIndex: full }))).toEqual([
      "KMS/read-data",
      "S3/read-data",
    ]);
    expect(grants(analyzeAccount(other, { actionIndex: iamOnly }))).toEqual([]);
  });
});
