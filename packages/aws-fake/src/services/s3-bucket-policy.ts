import { FakeAwsError } from "../fake-errors.ts";
import type { FakeSession, FakeState } from "../fake-state.ts";
import { findBucket } from "./s3-store.ts";

/** The IAM action each object operation needs (a copy also reads its source). */
const ACTIONS: Readonly<Record<string, string>> = {
  PutObject: "s3:PutObject",
  CopyObject: "s3:PutObject",
  CreateMultipartUpload: "s3:PutObject",
  UploadPart: "s3:PutObject",
  CompleteMultipartUpload: "s3:PutObject",
  AbortMultipartUpload: "s3:AbortMultipartUpload",
  DeleteObject: "s3:DeleteObject",
  GetObject: "s3:GetObject",
  HeadObject: "s3:GetObject",
};

interface Statement {
  Effect?: string;
  Principal?: unknown;
  Action?: string | string[];
  Resource?: string | string[];
  Condition?: unknown;
}

const list = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** IAM's wildcards: `*` any run of characters, `?` one; case-insensitive for actions. */
function matches(pattern: string, value: string, ignoreCase = false): boolean {
  const escaped = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  const regex = escaped.replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${regex}$`, ignoreCase ? "i" : "").test(value);
}

function principalMatches(principal: unknown, session: FakeSession): boolean {
  if (principal === "*") return true;
  const aws = (principal as { AWS?: string | string[] } | undefined)?.AWS;
  return list(aws).some(
    (p) => p === "*" || p === session.arn || p === `arn:aws:iam::${session.accountId}:root`,
  );
}

/**
 * S3 refuses an object operation that a statement of the bucket's policy explicitly denies the
 * caller (`Effect: Deny`, its principal, action and resource matching). Only explicit denials are
 * modelled (the fake lets every signed caller in otherwise), and statements with a `Condition`
 * are not evaluated: they never match.
 */
export function checkBucketPolicy(
  state: FakeState,
  session: FakeSession,
  operation: string,
  bucket: string,
  key: string,
): void {
  const action = ACTIONS[operation];
  if (!action || !key) return;
  const policy = findBucket(state, bucket).policy;
  const document = (typeof policy === "string" ? JSON.parse(policy) : policy) as
    | { Statement?: Statement | Statement[] }
    | undefined;
  const found = document?.Statement;
  const statements = found === undefined ? [] : Array.isArray(found) ? found : [found];
  const resource = `arn:aws:s3:::${bucket}/${key}`;
  const denied = statements.some(
    (s) =>
      s.Effect === "Deny" &&
      s.Condition === undefined &&
      principalMatches(s.Principal, session) &&
      list(s.Action).some((a) => matches(a, action, true)) &&
      list(s.Resource).some((r) => matches(r, resource)),
  );
  if (denied) throw new FakeAwsError("AccessDenied", "Access Denied", 403);
}
