import { K9_COLUMNS, type K9ReportType } from "./k9-format.ts";

/**
 * k9's own output, as quoted by k9 in its integrations: a few rows and keys, each cited
 * (DD = k9securityio/k9-datadog-viz @ ed315277, pipelines/k9-reports-latest.pipeline.json, the
 * parsers' `samples`; CLI = k9securityio/k9-cli @ bede6021). The samples carry no header line:
 * the header is `K9_COLUMNS`, the parsers' `csv()` list.
 */
export const K9_SAMPLE_ROWS: Readonly<Record<K9ReportType, readonly string[]>> = {
  principals: [
    // DD :98 (its trailing `\n` dropped): a user with one access key and no password.
    '2022-12-10T07:14:19.753800+00:00,ci,arn:aws:iam::139710491120:user/ci,IAMUser,True,2022-12-10 05:03:00+00:00,ProductDevelopment,,,"{""BusinessUnit"": ""ProductDevelopment""}",,,,2022-12-10 05:03:00+00:00,2021-03-08 21:03:09+00:00,Active,,,',
    // DD :99: a role, every credential column empty, tags `{}`.
    "2022-12-10T07:14:19.753800+00:00,AWSReservedSSO_AdministratorAccess_437be9d757c9ea2f,arn:aws:iam::139710491120:role/aws-reserved/sso.amazonaws.com/AWSReservedSSO_AdministratorAccess_437be9d757c9ea2f,IAMRole,True,2022-07-21 15:30:39+00:00,,,,{},,,,,,,,,",
  ],
  "principal-access-summaries": [
    // DD :52: service-wide access, `resource_arn` empty.
    '2022-12-21T07:15:36.947776+00:00,ci,arn:aws:iam::139710491120:user/ci,IAMUser,"{""BusinessUnit"": ""ProductDevelopment""}",Athena,administer-resource,',
    // DD :54: access to one resource.
    '2022-12-21T07:15:36.947776+00:00,ci,arn:aws:iam::139710491120:user/ci,IAMUser,"{""BusinessUnit"": ""ProductDevelopment""}",STS,use-resource,arn:aws:iam::139710491120:role/DatadogIntegrationRole',
  ],
  "resource-access-summaries": [
    // DD :147: a KMS key named by its alias, no confidentiality tag.
    "2022-12-21T07:15:36.947776+00:00,KMS,alias/k9-cdk-integration-test,arn:aws:kms:us-east-1:139710491120:key/a71d41d3-d7f2-4829-9d0c-8d527e366a9a,administer-resource,IAMUser,ci,arn:aws:iam::139710491120:user/ci,",
  ],
  resources: [
    // DD :178 (also CLI core/reports_test.go:39, another day): no tags, `{}`.
    "2023-01-13T13:14:19.753800+00:00,AccountAdminAccessRole-Sandbox,arn:aws:iam::139710491120:role/AccountAdminAccessRole-Sandbox,IAMRole,,,,,,,{}",
  ],
};

/**
 * DD :179: k9 once wrote a bucket's tags as a Python dict (`{'Owner': 'product', …}`), which the
 * pipeline's own `json` filter (DD :198) cannot parse. Kept to show the contract rejects it:
 * Sightline writes JSON.
 */
export const K9_SAMPLE_PYTHON_TAGS_ROW =
  "2023-01-13T13:14:19.753800+00:00,qm-dev-k9-reports,arn:aws:s3:::qm-dev-k9-reports,S3Bucket,,dev,product,,,,\"{'Owner': 'product', 'ManagedBy': 'Terraform', 'Environment': 'dev', 'Application': 'k9', 'Name': 'qm-dev-k9-reports'}\"";

/**
 * Keys k9 delivers. Latest: DD :13-15 (resources by the same pattern). Dated: CLI
 * core/list_test.go:20, :26, :32. Athena: the CSV example of k9's Athena page.
 */
export const K9_SAMPLE_KEYS = {
  latest: {
    "principal-access-summaries":
      "customers/C10001/reports/aws/139710491120/latest/principal-access-summaries.latest.csv",
    "resource-access-summaries":
      "customers/C10001/reports/aws/139710491120/latest/resource-access-summaries.latest.csv",
    principals: "customers/C10001/reports/aws/139710491120/latest/principals.latest.csv",
    resources: "customers/C10001/reports/aws/139710491120/latest/resources.latest.csv",
  } satisfies Record<K9ReportType, string>,
  dated: [
    "customers/C10001/reports/aws/139710491120/2021/05/resources.2021-05-30-0750.csv",
    "customers/C10001/reports/aws/139710491120/2021/06/principals.2021-06-11-1755.csv",
    "customers/C10001/reports/aws/139710491120/2021/11/principal-access-summaries.2021-11-30-2350.csv",
  ],
  athenaCsv:
    "hive/customer_id=C10001/csp=aws/account_id=123456789012/file_type=csv_pas/principal-access-summaries.latest.csv",
} as const;

/** A sample report as a file: k9's header line, then the sample rows (LF, as DD :98 ends). */
export const k9SampleCsv = (type: K9ReportType, rows = K9_SAMPLE_ROWS[type]): string =>
  `${[K9_COLUMNS[type].join(","), ...rows].join("\n")}\n`;
