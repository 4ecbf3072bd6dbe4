import { FakeAwsError } from "../fake-errors.ts";
import type { GaadEntry } from "../fake-model.ts";
import type { FakeCall, FakeServiceHandler, FakeState } from "../fake-state.ts";
import { type FakeResponse, queryResponse } from "../protocols/responses.ts";
import { currentCredentialReport } from "./iam-credential-report.ts";
import { credentialRead } from "./iam-credentials.ts";
import { encodeDocuments } from "./iam-documents.ts";
import { principalRead } from "./iam-entities.ts";
import { queryList, queryParams } from "./query-params.ts";

type GaadList = "UserDetailList" | "GroupDetailList" | "RoleDetailList" | "Policies";
const LISTS: readonly GaadList[] = [
  "UserDetailList",
  "GroupDetailList",
  "RoleDetailList",
  "Policies",
];
/** GAAD's `Filter` value of each list; policies filter by who manages them. */
const FILTER_OF: Record<Exclude<GaadList, "Policies">, string> = {
  UserDetailList: "User",
  GroupDetailList: "Group",
  RoleDetailList: "Role",
};

/**
 * IAM over AWS Query: GAAD in pages, managed policies, the credential report, and the
 * per-principal and per-credential reads, all answered from the same model.
 */
export const fakeIam: FakeServiceHandler = {
  identify(request) {
    const params = queryParams(request);
    const resource =
      params.get("PolicyArn") ??
      params.get("UserName") ??
      params.get("RoleName") ??
      params.get("GroupName") ??
      params.get("AccessKeyId");
    return { operation: params.get("Action") ?? "", ...(resource ? { resource } : {}) };
  },
  handle(call) {
    const params = queryParams(call.request);
    const respond = (result: object) =>
      queryResponse("iam", call.operation, result, call.requestId);
    switch (call.operation) {
      case "GetAccountAuthorizationDetails":
        return respond(gaadPage(call.state, params));
      case "GetPolicy":
      case "GetPolicyVersion":
        return respond(policyAnswer(call, params.get("PolicyArn") ?? ""));
      case "GenerateCredentialReport":
      case "GetCredentialReport":
        return credentialReport(call, respond);
      case "ListPolicyVersions":
        return respond(policyVersions(call, params.get("PolicyArn") ?? ""));
      default: {
        const answer =
          principalRead(call.state, call.operation, params) ??
          credentialRead(call.state, call.operation, params);
        if (answer) return respond(answer);
        throw new FakeAwsError("InvalidAction", `Unsupported IAM action ${call.operation}`, 400);
      }
    }
  },
};

/** Every entry in one sequence, cut into pages; the marker is the offset of the next page. */
function gaadPage(state: FakeState, params: URLSearchParams): object {
  const filter = queryList(params, "Filter");
  const wanted = (list: GaadList, entry: GaadEntry) => {
    if (filter.length === 0) return true;
    if (list !== "Policies") return filter.includes(FILTER_OF[list]);
    const awsManaged = String(entry.Arn).includes(":iam::aws:policy/");
    return filter.includes(awsManaged ? "AWSManagedPolicy" : "LocalManagedPolicy");
  };
  const details = state.model.authorizationDetails ?? {};
  const entries = LISTS.flatMap((list) =>
    (details[list] ?? []).filter((entry) => wanted(list, entry)).map((entry) => ({ list, entry })),
  );
  const offset = Number(
    params.get("Marker") ? Buffer.from(params.get("Marker") ?? "", "base64").toString() : 0,
  );
  const size = Math.min(Number(params.get("MaxItems") ?? 100), state.model.gaadPageSize ?? 1000);
  const page = entries.slice(offset, offset + size);
  const next = offset + size < entries.length ? offset + size : undefined;
  const result: Record<string, unknown> = {};
  for (const list of LISTS) {
    result[list] = page
      .filter((item) => item.list === list)
      .map((item) => encodeDocuments(item.entry));
  }
  result.IsTruncated = next !== undefined;
  if (next !== undefined) result.Marker = Buffer.from(String(next)).toString("base64");
  return result;
}

/** A managed policy of GAAD or outside it; `NoSuchEntity` as IAM words it. */
export function findManagedPolicy(state: FakeState, arn: string): GaadEntry {
  const details = state.model.authorizationDetails ?? {};
  const all = [...(details.Policies ?? []), ...(state.model.policiesOutsideGaad ?? [])];
  const policy = all.find((entry) => entry.Arn === arn);
  if (!policy)
    throw new FakeAwsError(
      "NoSuchEntity",
      `Policy ${arn} does not exist or is not attachable.`,
      404,
    );
  return policy;
}

function policyVersions(call: FakeCall, arn: string): object {
  const versions = (findManagedPolicy(call.state, arn).PolicyVersionList ?? []) as GaadEntry[];
  const listed = versions.map(({ Document: _, ...version }) => version);
  return { Versions: listed, IsTruncated: false };
}

function policyAnswer(call: FakeCall, arn: string): object {
  const policy = findManagedPolicy(call.state, arn);
  const { PolicyVersionList, ...summary } = policy;
  if (call.operation === "GetPolicy") return { Policy: summary };
  const versionId = queryParams(call.request).get("VersionId");
  const versions = (PolicyVersionList ?? []) as GaadEntry[];
  const version = versions.find((v) => v.VersionId === versionId);
  if (!version)
    throw new FakeAwsError(
      "NoSuchEntity",
      `Policy ${arn} version ${versionId} does not exist.`,
      404,
    );
  return { PolicyVersion: encodeDocuments(version) as object };
}

/** GenerateCredentialReport answers STARTED, then INPROGRESS, for `credentialReportPolls` calls. */
function credentialReport(call: FakeCall, respond: (result: object) => FakeResponse): FakeResponse {
  const { state } = call;
  const polls = state.model.credentialReportPolls ?? 1;
  if (call.operation === "GenerateCredentialReport") {
    state.credentialReportCalls++;
    const calls = state.credentialReportCalls;
    const status = calls > polls ? "COMPLETE" : calls === 1 ? "STARTED" : "INPROGRESS";
    return respond({ State: status, Description: `The report is ${status.toLowerCase()}` });
  }
  if (state.credentialReportCalls <= polls) {
    throw new FakeAwsError("ReportInProgress", "Credential report is being generated.", 404);
  }
  const csv = currentCredentialReport(state);
  return respond({
    Content: Buffer.from(csv).toString("base64"),
    ReportFormat: "text/csv",
    GeneratedTime: new Date(),
  });
}
