import {
  type AnalysisResultHeader,
  analysisPrincipalPage,
  analysisResourcePage,
  type Executor,
  getAnalysisPrincipal,
  getAnalysisResource,
  latestAnalysisResult,
} from "@sightline/db";
import {
  AppError,
  type ListedPrincipal,
  type PrincipalAccess,
  type PrincipalList,
  type ResourceList,
  type WhoCan,
} from "@sightline/domain";
import { readReachDictionary } from "../results/reach-dictionary.ts";
import type { ReachDictionary } from "../results/reach-encoding.ts";
import {
  decodePrincipal,
  decodeResource,
  type PrincipalRecord,
} from "../results/result-records.ts";

/**
 * An account's access as its newest stored analysis holds it: what the console and the MCP tools
 * read. Nothing is analysed here; a request reads a page of principals or one record.
 */

export interface AccountKey {
  customerId: string;
  accountId: string;
}

async function newestResults(db: Executor, account: AccountKey): Promise<AnalysisResultHeader> {
  const header = await latestAnalysisResult(db, account);
  if (!header)
    throw new AppError(
      "CONFLICT",
      `Account ${account.accountId} has no analysis yet: trigger one and ask again once it has succeeded`,
    );
  return header;
}

const answeredBy = (header: AnalysisResultHeader) => ({
  executionId: header.executionId,
  analysisTime: header.analysisTime.toISOString(),
});

function listed(record: PrincipalRecord): ListedPrincipal {
  return {
    principalArn: record.arn,
    principalName: record.name,
    principalType: record.type,
    iamAdmin: record.iamAdmin,
    iamAdminGrantedBy: [...record.iamAdminGrantedBy],
    ...(record.lastUsed ? { lastUsed: record.lastUsed } : {}),
  };
}

/** A page of the account's principals in ARN order; `next` is the ARN to continue after. */
export async function accountPrincipals(
  db: Executor,
  account: AccountKey,
  query: { iamAdmin?: string; q?: string; after?: string; limit: number },
): Promise<Omit<PrincipalList, "nextCursor"> & { next?: string }> {
  const header = await newestResults(db, account);
  const page = await analysisPrincipalPage(db, header.executionId, {
    ...(query.iamAdmin ? { iamAdmin: query.iamAdmin } : {}),
    ...(query.q ? { contains: query.q } : {}),
    ...(query.after ? { after: query.after } : {}),
    limit: query.limit + 1,
  });
  const principals = page.slice(0, query.limit).map((stored) => listed(decodePrincipal(stored)));
  const next = page.length > query.limit ? principals.at(-1)?.principalArn : undefined;
  return { ...answeredBy(header), principals, ...(next ? { next } : {}) };
}

/** What one principal of the account can do, or 404. */
export async function principalAccess(
  db: Executor,
  account: AccountKey,
  principalArn: string,
): Promise<PrincipalAccess> {
  const header = await newestResults(db, account);
  const stored = await getAnalysisPrincipal(db, header.executionId, principalArn);
  if (!stored)
    throw new AppError(
      "NOT_FOUND",
      `principalArn: ${principalArn} is not a principal of account ${account.accountId} in its newest analysis (${header.executionId})`,
    );
  const record = decodePrincipal(stored);
  return {
    ...answeredBy(header),
    principal: listed(record),
    access: record.access.map(([service, capability, resource, conditional, grantedBy]) => ({
      service,
      capability,
      resource: resource === "" ? "*" : resource,
      conditional: conditional === 1,
      grantedBy: [...grantedBy],
    })),
  };
}

// An analysis's reach dictionary is read and parsed once for a few requests in a row.
const dictionaries = new Map<string, Promise<ReachDictionary>>();
function dictionaryOf(db: Executor, executionId: string): Promise<ReachDictionary> {
  let found = dictionaries.get(executionId);
  if (!found) {
    found = readReachDictionary(db, executionId).then((found) => {
      if (!found) throw new Error(`The results of ${executionId} have no reach dictionary.`);
      return found;
    });
    found.catch(() => dictionaries.delete(executionId));
    if (dictionaries.size >= 4) dictionaries.delete(dictionaries.keys().next().value as string);
    dictionaries.set(executionId, found);
  }
  return found;
}

/** Who holds access to one resource of the account (one capability, or all), or 404. */
export async function whoCan(
  db: Executor,
  account: AccountKey,
  query: { resourceArn: string; capability?: string },
): Promise<WhoCan> {
  const header = await newestResults(db, account);
  const stored = await getAnalysisResource(db, header.executionId, query.resourceArn);
  if (!stored)
    throw new AppError(
      "NOT_FOUND",
      `resourceArn: ${query.resourceArn} is not among the resources of account ${account.accountId} in its newest analysis (${header.executionId}): the analysis lists buckets, keys, roles and resources with a resource-based policy`,
    );
  const record = await decodeResource(stored, () => dictionaryOf(db, header.executionId));
  return {
    ...answeredBy(header),
    resource: {
      resourceArn: record.arn,
      resourceType: record.type,
      service: record.service,
      resourceName: record.name,
      confidentiality: record.confidentiality,
    },
    principals: record.reach
      .filter((entry) => query.capability === undefined || entry[2] === query.capability)
      .map(([principal, principalType, capability, inAccount, conditional, grantedBy]) => ({
        principal,
        principalType,
        capability,
        inAccount: inAccount === 1,
        conditional: conditional === 1,
        grantedBy: [...grantedBy],
      })),
  };
}

/** A page of the account's resources in ARN order (a picker's list); `next` continues after. */
export async function accountResources(
  db: Executor,
  account: AccountKey,
  query: { q?: string; after?: string; limit: number },
): Promise<Omit<ResourceList, "nextCursor"> & { next?: string }> {
  const header = await newestResults(db, account);
  const page = await analysisResourcePage(db, header.executionId, {
    ...(query.q ? { contains: query.q } : {}),
    ...(query.after ? { after: query.after } : {}),
    limit: query.limit + 1,
  });
  const resources = page.slice(0, query.limit);
  const next = page.length > query.limit ? resources.at(-1)?.resourceArn : undefined;
  return { ...answeredBy(header), resources, ...(next ? { next } : {}) };
}
