import { z } from "zod";
import { Cursor, PageLimit } from "./access-change.ts";
import { AccessCapability } from "./capability-map.ts";

/**
 * What the API answers about an account's access from its newest stored analysis (the console's
 * and the MCP tools' reads): its principals, what one principal can do, who can reach a resource.
 * Nothing here analyses an account: an account not analysed yet answers 409.
 */

const IAM_ADMIN = ["yes", "conditional", "no"] as const;

/** Which analysis answered: the execution and when it ran. */
const AnsweredBy = {
  executionId: z.string().describe("The analysis (execution) the answer comes from"),
  analysisTime: z.iso.datetime().describe("When that analysis ran"),
};

const Arn = (what: string) =>
  z
    .string()
    .min(1, `must name a ${what}`)
    .max(2048, "must be at most 2048 characters")
    .regex(/^\S+$/, "must not contain white space");

export const PrincipalListQuery = z.object({
  iamAdmin: z
    .enum(IAM_ADMIN)
    .optional()
    .describe("Only principals with this IAM-admin state (`yes`, `conditional`, `no`)"),
  q: z
    .string()
    .min(1, "must not be empty")
    .max(200, "must be at most 200 characters")
    .optional()
    .describe("Only principals whose ARN contains this text (case-insensitive)"),
  cursor: Cursor,
  limit: PageLimit,
});

export const ListedPrincipal = z
  .object({
    principalArn: z.string(),
    principalName: z.string(),
    principalType: z.string(),
    iamAdmin: z.enum(IAM_ADMIN),
    iamAdminGrantedBy: z
      .array(z.string())
      .describe("The policies that make it an IAM admin, as the reports name them"),
    lastUsed: z.iso
      .datetime()
      .optional()
      .describe("Its last use; absent when never used or unknown"),
  })
  .meta({ id: "ListedPrincipal" });
export type ListedPrincipal = z.infer<typeof ListedPrincipal>;

export const PrincipalList = z
  .object({
    ...AnsweredBy,
    principals: z.array(ListedPrincipal).describe("In code-point order of their ARN"),
    nextCursor: z.string().optional().describe("Pass as `cursor` for the next page"),
  })
  .meta({ id: "PrincipalList" });
export type PrincipalList = z.infer<typeof PrincipalList>;

export const PrincipalAccessQuery = z.object({
  principalArn: Arn("principal").describe("The principal's ARN (or Azure object ID)"),
});

export const PrincipalAccessEntry = z.object({
  service: z.string(),
  capability: z.string(),
  resource: z.string().describe("A resource ARN or pattern; `*`: every resource of the service"),
  conditional: z.boolean().describe("Only under the conditions of the granting statements"),
  grantedBy: z.array(z.string()),
});

export const PrincipalAccess = z
  .object({
    ...AnsweredBy,
    principal: ListedPrincipal,
    access: z.array(PrincipalAccessEntry).describe("By service, capability and resource"),
  })
  .meta({ id: "PrincipalAccess" });
export type PrincipalAccess = z.infer<typeof PrincipalAccess>;

export const WhoCanQuery = z.object({
  resourceArn: Arn("resource").describe("The resource's ARN (or Azure resource ID)"),
  capability: AccessCapability.optional().describe("Only this access capability"),
});

export const ResourceHolder = z.object({
  principal: z.string().describe("An ARN, an account ID, `*` or a service"),
  principalType: z.string(),
  capability: z.string(),
  inAccount: z.boolean().describe("The principal belongs to the resource's account"),
  conditional: z.boolean(),
  grantedBy: z.array(z.string()),
});

export const WhoCan = z
  .object({
    ...AnsweredBy,
    resource: z.object({
      resourceArn: z.string(),
      resourceType: z.string(),
      service: z.string(),
      resourceName: z.string(),
      confidentiality: z.string().describe("Its `Confidentiality` tag; empty when none"),
    }),
    principals: z
      .array(ResourceHolder)
      .describe("Who holds each capability on it, by principal and capability"),
  })
  .meta({ id: "WhoCan" });
export type WhoCan = z.infer<typeof WhoCan>;

export const ResourceListQuery = z.object({
  q: z
    .string()
    .min(1, "must not be empty")
    .max(200, "must be at most 200 characters")
    .optional()
    .describe("Only resources whose ARN contains this text (case-insensitive)"),
  cursor: Cursor,
  limit: PageLimit,
});

export const ListedResource = z
  .object({
    resourceArn: z.string(),
    resourceType: z.string(),
    resourceName: z.string(),
    confidentiality: z.string().describe("Its `Confidentiality` tag; empty when none"),
  })
  .meta({ id: "ListedResource" });

export const ResourceList = z
  .object({
    ...AnsweredBy,
    resources: z.array(ListedResource).describe("In code-point order of their ARN"),
    nextCursor: z.string().optional().describe("Pass as `cursor` for the next page"),
  })
  .meta({ id: "ResourceList" });
export type ResourceList = z.infer<typeof ResourceList>;
