import { createHash } from "node:crypto";
import {
  buildDenyIamAdminBoundaryPolicy,
  buildDenyIamAdminIdentityPolicy,
  getAwsCapabilityMap,
  getAzureCapabilityMap,
} from "@sightline/capabilities";
import { CapabilityMap, IamPolicyDocument } from "@sightline/domain";
import type { z } from "zod";
import { defineRoute, type RouteDef } from "../route.ts";
import { unauthorized } from "./responses.ts";

/** A document that changes only with a release: serialised once, then served by ETag. */
function staticDocument(build: () => unknown) {
  let cached: { json: string; etag: string } | undefined;
  return () => {
    if (!cached) {
      const json = JSON.stringify(build());
      cached = {
        json,
        etag: `"${createHash("sha256").update(json).digest("base64url").slice(0, 32)}"`,
      };
    }
    return cached;
  };
}

function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return (
    header.trim() === "*" ||
    header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)
  );
}

function staticRoute(spec: {
  path: string;
  operationId: string;
  summary: string;
  tags: string[];
  schema: z.ZodType;
  build: () => unknown;
}): RouteDef {
  const document = staticDocument(spec.build);
  return defineRoute({
    method: "get",
    path: spec.path,
    operationId: spec.operationId,
    summary: spec.summary,
    tags: spec.tags,
    access: { kind: "authenticated" },
    responses: {
      200: {
        description: "The document; send its ETag in If-None-Match to revalidate",
        schema: spec.schema,
      },
      304: { description: "Unchanged since the ETag in If-None-Match" },
      ...unauthorized,
    },
    handler: ({ c }) => {
      const { json, etag } = document();
      const headers = { etag, "cache-control": "private, max-age=3600, must-revalidate" };
      if (ifNoneMatchHits(c.req.header("if-none-match"), etag))
        return { status: 304, json: null, headers };
      return { status: 200, json, headers };
    },
  });
}

/** Endpoints 1 to 3. */
export const awsCapabilities = staticRoute({
  path: "/access-capabilities/aws",
  operationId: "getAwsAccessCapabilities",
  summary: "Capability map for AWS",
  tags: ["Access capabilities"],
  schema: CapabilityMap,
  build: getAwsCapabilityMap,
});
export const azureCapabilities = staticRoute({
  path: "/access-capabilities/azure",
  operationId: "getAzureAccessCapabilities",
  summary: "Capability map for Azure",
  tags: ["Access capabilities"],
  schema: CapabilityMap,
  build: getAzureCapabilityMap,
});
export const defaultCapabilities = staticRoute({
  path: "/access-capabilities",
  operationId: "getAccessCapabilities",
  summary: "Capability map for AWS, as the original service published it under this path",
  tags: ["Access capabilities"],
  schema: CapabilityMap,
  build: getAwsCapabilityMap,
});

/** Endpoints 4 and 5. */
export const denyIamAdminBoundary = staticRoute({
  path: "/policy/aws/permission-boundary/deny-iam-admin",
  operationId: "getDenyIamAdminPermissionsBoundary",
  summary:
    "Permissions boundary that denies administering IAM and allows what other policies grant",
  tags: ["Policies"],
  schema: IamPolicyDocument,
  build: buildDenyIamAdminBoundaryPolicy,
});
export const denyIamAdminIdentity = staticRoute({
  path: "/policy/aws/identity/deny-iam-admin",
  operationId: "getDenyIamAdminIdentityPolicy",
  summary: "Identity policy that denies administering IAM (grants nothing)",
  tags: ["Policies"],
  schema: IamPolicyDocument,
  build: buildDenyIamAdminIdentityPolicy,
});
