import { createHash } from "node:crypto";
import { createRoute } from "@hono/zod-openapi";
import {
  buildDenyIamAdminBoundaryPolicy,
  buildDenyIamAdminIdentityPolicy,
  getAwsCapabilityMap,
  getAzureCapabilityMap,
} from "@sightline/capabilities";
import { CapabilityMap, IamPolicyDocument } from "@sightline/domain";
import type { z } from "zod";
import { defineEndpoint } from "../endpoint.ts";
import { errorsOf, ok } from "../openapi.ts";

/** A document that changes only with a release: serialised once, then served by ETag. */
function staticDocument(build: () => unknown) {
  let cached: { json: string; etag: string } | undefined;
  return () => {
    if (!cached) {
      const json = JSON.stringify(build());
      const digest = createHash("sha256").update(json).digest("base64url");
      cached = { json, etag: `"${digest.slice(0, 32)}"` };
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

function staticEndpoint(spec: {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  schema: z.ZodType;
  build: () => unknown;
}) {
  const document = staticDocument(spec.build);
  return defineEndpoint({
    route: createRoute({
      method: "get",
      path: spec.path,
      operationId: spec.operationId,
      summary: spec.summary,
      description: `${spec.description} Any valid API key may read it. The answer carries an ETag: send it in If-None-Match to revalidate.`,
      tags: [spec.tag],
      responses: {
        200: ok(spec.schema, "The document"),
        304: { description: "Unchanged since the ETag in If-None-Match" },
        ...errorsOf(),
      },
    }),
    permission: "read",
    access: { kind: "authenticated" },
    handler: () => (c) => {
      const { json, etag } = document();
      const headers = { etag, "cache-control": "private, max-age=3600, must-revalidate" };
      if (ifNoneMatchHits(c.req.header("if-none-match"), etag)) return c.body(null, 304, headers);
      return c.body(json, 200, { ...headers, "content-type": "application/json" });
    },
  });
}

const MAP_DESCRIPTION =
  "Service name → access capability → permission names (section 2.7 of the interface).";

/** Endpoints 1 to 3. */
export const awsCapabilities = staticEndpoint({
  path: "/access-capabilities/aws",
  operationId: "getAwsAccessCapabilities",
  summary: "Capability map for AWS",
  description: MAP_DESCRIPTION,
  tag: "Access capabilities",
  schema: CapabilityMap,
  build: getAwsCapabilityMap,
});
export const azureCapabilities = staticEndpoint({
  path: "/access-capabilities/azure",
  operationId: "getAzureAccessCapabilities",
  summary: "Capability map for Azure",
  description: `${MAP_DESCRIPTION} Keys are Azure resource providers.`,
  tag: "Access capabilities",
  schema: CapabilityMap,
  build: getAzureCapabilityMap,
});
export const defaultCapabilities = staticEndpoint({
  path: "/access-capabilities",
  operationId: "getAccessCapabilities",
  summary: "Capability map for AWS, as the original service published it under this path",
  description: `${MAP_DESCRIPTION} The same document as /access-capabilities/aws.`,
  tag: "Access capabilities",
  schema: CapabilityMap,
  build: getAwsCapabilityMap,
});

/** Endpoints 4 and 5. */
export const denyIamAdminBoundary = staticEndpoint({
  path: "/policy/aws/permission-boundary/deny-iam-admin",
  operationId: "getDenyIamAdminPermissionsBoundary",
  summary:
    "Permissions boundary that denies administering IAM and allows what other policies grant",
  description:
    "Two statements: a Deny of every IAM action classified administer-resource, and an Allow of `*` so that the permissions other policies grant stay usable. Use it only as a permissions boundary.",
  tag: "Policies",
  schema: IamPolicyDocument,
  build: buildDenyIamAdminBoundaryPolicy,
});
export const denyIamAdminIdentity = staticEndpoint({
  path: "/policy/aws/identity/deny-iam-admin",
  operationId: "getDenyIamAdminIdentityPolicy",
  summary: "Identity policy that denies administering IAM (grants nothing)",
  description:
    "The Deny statement of the boundary alone, to attach as an identity policy next to the policies that grant access.",
  tag: "Policies",
  schema: IamPolicyDocument,
  build: buildDenyIamAdminIdentityPolicy,
});
