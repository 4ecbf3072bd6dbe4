import { FakeAwsError, serviceError } from "../fake-errors.ts";
import { type FakeServiceHandler, partitionOf, randomId } from "../fake-state.ts";
import { queryResponse } from "../protocols/responses.ts";
import { queryParams } from "./query-params.ts";

/** STS over AWS Query: AssumeRole (checks the external ID) and GetCallerIdentity. */
export const fakeSts: FakeServiceHandler = {
  identify(request) {
    const params = queryParams(request);
    const roleArn = params.get("RoleArn");
    return { operation: params.get("Action") ?? "", ...(roleArn ? { resource: roleArn } : {}) };
  },
  handle({ request, operation, session, state, requestId }) {
    const params = queryParams(request);
    if (operation === "GetCallerIdentity") {
      return queryResponse(
        "sts",
        operation,
        { UserId: session.accessKeyId, Account: session.accountId, Arn: session.arn },
        requestId,
      );
    }
    if (operation !== "AssumeRole") throw new FakeAwsError("InvalidAction", operation, 400);
    const roleArn = params.get("RoleArn") ?? "";
    const externalId = params.get("ExternalId") ?? "";
    const trusted =
      state.model.assumableRoles?.some(
        (r) => r.roleArn === roleArn && r.externalId === externalId,
      ) || state.trustedExternalIds.get(roleArn)?.has(externalId) === true;
    if (!trusted) {
      throw serviceError(
        "sts",
        "access-denied",
        `User: ${session.arn} is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`,
      );
    }
    const sessionName = params.get("RoleSessionName") ?? "session";
    const duration = Number(params.get("DurationSeconds") ?? 3600);
    const roleName = roleArn.split("/").pop() ?? "role";
    const assumed = {
      accessKeyId: randomId("ASIA", 16),
      secretAccessKey: randomId("", 40),
      sessionToken: randomId("FQoGZXIvYXdzE", 64),
      arn: `arn:${partitionOf(state)}:sts::${state.model.accountId}:assumed-role/${roleName}/${sessionName}`,
      accountId: state.model.accountId,
      expiresAt: new Date(Date.now() + duration * 1000),
    };
    state.sessions.set(assumed.accessKeyId, assumed);
    return queryResponse(
      "sts",
      operation,
      {
        Credentials: {
          AccessKeyId: assumed.accessKeyId,
          SecretAccessKey: assumed.secretAccessKey,
          SessionToken: assumed.sessionToken,
          Expiration: assumed.expiresAt,
        },
        AssumedRoleUser: {
          AssumedRoleId: `AROA${randomId("", 17)}:${sessionName}`,
          Arn: assumed.arn,
        },
      },
      requestId,
    );
  },
};
