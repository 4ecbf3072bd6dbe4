import { FakeAwsError } from "../fake-errors.ts";
import type { FakeCall, FakeServiceHandler } from "../fake-state.ts";
import { partitionOf } from "../fake-state.ts";
import { type FakeResponse, restJsonResponse } from "../protocols/responses.ts";

/** ASFF members BatchImportFindings requires of every finding. */
const REQUIRED = [
  "SchemaVersion",
  "Id",
  "ProductArn",
  "GeneratorId",
  "AwsAccountId",
  "CreatedAt",
  "UpdatedAt",
  "Title",
  "Description",
  "Resources",
] as const;

/**
 * Security Hub over REST-JSON: `POST /findings/import` (BatchImportFindings). Findings are kept
 * per region and caller account; a finding with the same product and ID replaces the earlier one.
 * As AWS does for the default product, a finding must name the caller's own account.
 */
export const fakeSecurityHub: FakeServiceHandler = {
  identify(request) {
    const path = request.url.pathname;
    const operation =
      request.method === "POST" && path === "/findings/import" ? "BatchImportFindings" : path;
    return { operation };
  },
  handle(call) {
    if (call.operation !== "BatchImportFindings")
      throw new FakeAwsError("InvalidInputException", `${call.operation} is not faked`, 400);
    return importFindings(call);
  },
};

interface Failure {
  Id: string;
  ErrorCode: string;
  ErrorMessage: string;
}

function importFindings(call: FakeCall): FakeResponse {
  const { request, session, state } = call;
  const text = request.body.toString("utf8");
  const findings = ((text ? JSON.parse(text) : {}) as { Findings?: unknown }).Findings;
  if (!Array.isArray(findings) || findings.length === 0 || findings.length > 100)
    throw new FakeAwsError(
      "InvalidInputException",
      "Findings must hold between 1 and 100 findings",
      400,
    );
  const failed: Failure[] = [];
  const product = `arn:${partitionOf(state)}:securityhub:${request.region}:${session.accountId}:product/${session.accountId}/default`;
  for (const item of findings as Record<string, unknown>[]) {
    const id = typeof item.Id === "string" ? item.Id : "";
    if (call.alteration === "failed-findings") {
      failed.push({ Id: id, ErrorCode: "InternalException", ErrorMessage: "Internal failure" });
      continue;
    }
    const refusal = refusalOf(item, product, session.accountId);
    if (refusal) {
      failed.push({ Id: id, ...refusal });
      continue;
    }
    const kept = {
      region: request.region,
      accountId: session.accountId,
      importedBy: session.arn,
      finding: item,
    };
    const index = state.findings.findIndex(
      (f) =>
        f.region === kept.region &&
        f.accountId === kept.accountId &&
        f.finding.ProductArn === item.ProductArn &&
        f.finding.Id === id,
    );
    if (index >= 0) state.findings[index] = kept;
    else state.findings.push(kept);
  }
  return restJsonResponse({
    FailedCount: failed.length,
    SuccessCount: findings.length - failed.length,
    FailedFindings: failed,
  });
}

function refusalOf(
  finding: Record<string, unknown>,
  product: string,
  accountId: string,
): { ErrorCode: string; ErrorMessage: string } | undefined {
  const missing: string[] = REQUIRED.filter((member) => finding[member] === undefined);
  const severity = finding.Severity as { Label?: unknown } | undefined;
  if (severity?.Label === undefined) missing.push("Severity");
  if (!Array.isArray(finding.Types) || finding.Types.length === 0) missing.push("Types");
  if (missing.length > 0)
    return { ErrorCode: "InvalidInput", ErrorMessage: `Missing ${missing.join(", ")}` };
  if (finding.ProductArn !== product || finding.AwsAccountId !== accountId)
    return {
      ErrorCode: "AccessDeniedException",
      ErrorMessage: `The default product takes findings of the calling account only (${product})`,
    };
  return undefined;
}
