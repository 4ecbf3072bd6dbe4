import { paginateGetAccountAuthorizationDetails } from "@aws-sdk/client-iam";
import { awsCallError } from "../aws-call-error.ts";
import type { CollectContext } from "./collect-context.ts";
import { toPlainJson } from "./plain-json.ts";

/** GAAD as the AWS CLI prints it: documents decoded, dates as ISO strings. */
export interface AuthorizationDetailsJson {
  UserDetailList: Record<string, unknown>[];
  GroupDetailList: Record<string, unknown>[];
  RoleDetailList: Record<string, unknown>[];
  Policies: Record<string, unknown>[];
}

const PAGE_SIZE = 1000;

/**
 * Reads `GetAccountAuthorizationDetails` over every page. Without a filter IAM returns users,
 * groups, roles, customer managed policies and the AWS managed policies that are attached.
 * Its denial fails the run: without it there is nothing to analyse.
 */
export async function readAuthorizationDetails(
  ctx: CollectContext,
): Promise<AuthorizationDetailsJson> {
  const details: AuthorizationDetailsJson = {
    UserDetailList: [],
    GroupDetailList: [],
    RoleDetailList: [],
    Policies: [],
  };
  try {
    const pages = paginateGetAccountAuthorizationDetails(
      { client: ctx.clients.iam, pageSize: PAGE_SIZE },
      {},
    );
    for await (const page of pages) {
      for (const list of Object.keys(details) as (keyof AuthorizationDetailsJson)[]) {
        for (const entry of page[list] ?? []) {
          details[list].push(toPlainJson(entry) as Record<string, unknown>);
        }
      }
    }
  } catch (error) {
    throw awsCallError(error, "iam:GetAccountAuthorizationDetails", `account ${ctx.accountId}`);
  }
  return details;
}
