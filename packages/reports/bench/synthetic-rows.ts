import type { PrincipalAccessReportRow } from "../src/index.ts";

const SERVICES = ["S3", "KMS", "IAM", "EC2", "Lambda", "DynamoDB", "STS", "CloudWatch Logs"];
const CAPABILITIES = [
  "administer-resource",
  "read-config",
  "use-resource",
  "read-data",
  "write-data",
  "delete-data",
];
/**
 * Principal-access rows shaped like the engine's for a large account: principal after principal
 * (`rowsPerPrincipal` rows each), a third service-wide, the rest on one of 300 bucket patterns,
 * every principal tagged. Strings are built per principal and per row as the engine and the row
 * builders do.
 */
export function* syntheticPrincipalAccessRows(
  count: number,
  rowsPerPrincipal = 200,
): Generator<PrincipalAccessReportRow> {
  const analysisTime = new Date("2026-03-04T07:00:00Z");
  const noExceptions: readonly string[] = [];
  const grantedByManaged = [
    {
      policyType: "managed",
      policyArn: "arn:aws:iam::aws:policy/ReadOnlyAccess",
      policyName: "ReadOnlyAccess",
      sids: ["#0"],
    },
  ];
  const grantedByInline = [{ policyType: "inline", policyName: "data-access", sids: ["Read"] }];
  const someExceptions: readonly string[] = ["arn:aws:s3:::secret-archive/*"];
  for (let i = 0; i < count; ) {
    const p = i / rowsPerPrincipal;
    const name = `${p % 2 ? "role" : "user"}-${p}`;
    const arn = `arn:aws:iam::210987654321:${p % 2 ? "role/service-role" : "user/staff"}/${name}`;
    const tags = { BusinessUnit: `unit-${p % 12}`, Environment: p % 3 ? "prod" : "dev" };
    for (let j = 0; j < rowsPerPrincipal && i < count; j++, i++) {
      const pattern = j % 3 === 0 ? "" : `arn:aws:s3:::data-bucket-${(p + j) % 300}/*`;
      yield {
        analysis_time: analysisTime,
        principal_name: name,
        principal_arn: arn,
        principal_type: p % 2 ? "IAMRole" : "IAMUser",
        principal_tags: tags,
        service_name: SERVICES[j % SERVICES.length] as string,
        access_capability: CAPABILITIES[j % CAPABILITIES.length] as string,
        resource_arn: pattern,
        conditional: j % 11 === 0,
        except_resources: pattern === "" && j % 5 === 0 ? someExceptions : noExceptions,
        resource_pattern: pattern,
        granted_by: j % 4 === 0 ? grantedByInline : grantedByManaged,
        except_resources_this_scope_only: noExceptions,
      };
    }
  }
}
