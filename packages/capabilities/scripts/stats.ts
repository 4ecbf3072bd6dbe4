import type { AwsAccessLevel } from "../src/aws-access-level.ts";
import {
  AWS_DATA_SOURCE,
  awsServiceCategory,
  getAwsCapabilityMap,
  listAwsActions,
} from "../src/aws-catalogue.ts";
import { listAzureOperations } from "../src/azure-map.ts";
import { CAPABILITIES } from "../src/capability.ts";
import { classifyAwsAction } from "../src/classify-aws-action.ts";
import {
  buildDenyIamAdminBoundaryPolicy,
  listIamAdministerActions,
} from "../src/deny-iam-admin.ts";
import { measurePolicySize } from "../src/policy-document.ts";
import { formatAzureRoleResult, pooledAzureAgreement, runAzureRoleChecks } from "./azure-roles.ts";
import {
  compareWithK9,
  formatLeaveOneServiceOut,
  K9_2021,
  K9_2022,
  leaveOneServiceOut,
} from "./compare-k9.ts";
import { formatManagedPolicyResult, runManagedPolicyChecks } from "./managed-policies.ts";
import { formatSiblingViolations, runSiblingChecks } from "./sibling-consistency.ts";

// Prints the figures quoted in README.md: `pnpm --filter @sightline/capabilities stats`.
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const actions = listAwsActions();
const map = getAwsCapabilityMap();
console.log(
  `iam-data ${AWS_DATA_SOURCE.version} (data of ${AWS_DATA_SOURCE.dataUpdatedAt.slice(0, 10)})`,
);
console.log(`AWS: ${Object.keys(map).length} services, ${actions.length} actions`);
for (const cap of CAPABILITIES) {
  console.log(`  ${cap}: ${actions.filter((a) => a.capabilities.includes(cap)).length}`);
}
console.log(
  `  actions with two capabilities: ${actions.filter((a) => a.capabilities.length > 1).length}`,
);

const byRule = new Map<string, number>();
for (const a of actions) {
  const [, name = ""] = a.action.split(":");
  const { rule } = classifyAwsAction({
    prefix: a.prefix,
    name,
    accessLevel: a.accessLevel as AwsAccessLevel,
    category: awsServiceCategory(a.prefix),
  });
  byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
}
console.log("  decided by rule:", [...byRule].map(([r, n]) => `${r} ${n}`).join(", "));

for (const file of [K9_2022, K9_2021]) {
  const c = compareWithK9(file);
  console.log(
    `k9 ${file}: ${c.agreeing}/${c.compared} actions agree (${pct(c.agreement)}), rules alone ${pct(c.rulesOnlyAgreement)}, ${c.disagreements.length} kept disagreements, ${c.missing.length} reference actions not in iam-data`,
  );
}
for (const file of [K9_2022, K9_2021])
  console.log(`k9 ${formatLeaveOneServiceOut(leaveOneServiceOut(file))}`);

console.log("AWS managed policies (reference/aws-managed-policies):");
for (const r of runManagedPolicyChecks())
  console.log(formatManagedPolicyResult(r, 20).replace(/^/gm, "  "));

const siblings = runSiblingChecks();
console.log(formatSiblingViolations(siblings.violations, siblings.compared));

const boundary = buildDenyIamAdminBoundaryPolicy();
console.log(
  `IAM administer-resource actions: ${listIamAdministerActions().length}; boundary policy ${measurePolicySize(boundary)} of 6144 characters`,
);

const azure = listAzureOperations();
const providers = new Set(azure.map((o) => o.provider));
console.log(
  `Azure: ${providers.size} providers, ${azure.length} operations (${azure.filter((o) => o.isDataAction).length} data actions)`,
);
for (const cap of CAPABILITIES) {
  console.log(`  ${cap}: ${azure.filter((o) => o.capabilities.includes(cap)).length}`);
}
const roleChecks = runAzureRoleChecks();
const pooled = pooledAzureAgreement(roleChecks);
console.log(
  `Azure built-in roles (reference/azure/built-in-roles-raw.json): ${pooled.agreeing}/${pooled.compared} operations agree with their role's label (${pct(pooled.agreement)})`,
);
for (const r of roleChecks) console.log(formatAzureRoleResult(r, 20).replace(/^/gm, "  "));
