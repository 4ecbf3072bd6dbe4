import type { CollectedAccount } from "@sightline/aws";
import type { CollectedSubscription } from "@sightline/azure";
import { type AccountAnalysis, analyzeAccount, createAccountModel } from "@sightline/engine";
import { analyzeAzureSubscription } from "@sightline/engine/azure";
import type { AccessKeyCredential, PasswordCredential, UserCredentials } from "@sightline/reports";
import { allResources, reportInputOf } from "@sightline/reports";
import {
  isAzureCollection,
  readCollectionData,
  type StoredCollection,
} from "../snapshots/stored-collection.ts";
import type { CredentialState, PrincipalRecord } from "./result-records.ts";
import type { AnalysisForResults } from "./results-recorder.ts";

const iso = (date: Date | undefined) => date?.toISOString();

function credentialState(
  credential: PasswordCredential | AccessKeyCredential | undefined,
): CredentialState | undefined {
  if (!credential) return undefined;
  const active = "active" in credential ? credential.active !== false : true;
  const lastUsed = iso(credential.lastUsed);
  const lastRotated = iso(credential.lastRotated);
  return {
    state: active ? "Active" : "Inactive",
    ...(lastUsed ? { lastUsed } : {}),
    ...(lastRotated ? { lastRotated } : {}),
  };
}

function credentialsOf(credentials: UserCredentials | undefined): PrincipalRecord["credentials"] {
  const password = credentialState(credentials?.password);
  const accessKey1 = credentialState(credentials?.accessKey1);
  const accessKey2 = credentialState(credentials?.accessKey2);
  return {
    ...(password ? { password } : {}),
    ...(accessKey1 ? { accessKey1 } : {}),
    ...(accessKey2 ? { accessKey2 } : {}),
  };
}

const latest = (...dates: (string | undefined)[]) =>
  dates
    .filter((d): d is string => d !== undefined)
    .sort()
    .at(-1);

/** The last element of an ARN or an ARM ID: a resource's name when collection gives none. */
const lastName = (id: string) => id.slice(Math.max(id.lastIndexOf("/"), id.lastIndexOf(":")) + 1);

/** An AWS analysis with what collection adds: last use, credentials, names and tags. */
export function awsResultsInput(
  analysis: AccountAnalysis,
  collected: Pick<CollectedAccount, "metadata">,
): AnalysisForResults {
  const { metadata } = collected;
  const input = reportInputOf(analysis, metadata, new Date(0), new Map());
  return {
    analysis,
    principalDetails(arn) {
      const known = input.principalMetadata?.get(arn);
      const credentials = credentialsOf(known?.credentials);
      const lastUsed =
        iso(known?.lastUsed) ??
        latest(
          credentials.password?.lastUsed,
          credentials.accessKey1?.lastUsed,
          credentials.accessKey2?.lastUsed,
        );
      return { ...(lastUsed ? { lastUsed } : {}), credentials };
    },
    resourceDetails(arn) {
      const known = input.resourceMetadata?.get(arn);
      return { name: known?.name ?? lastName(arn), tags: known?.tags ?? {} };
    },
    extraResources: allResources(analysis, metadata),
  };
}

/** An Azure analysis: no credentials or last use are collected; names from the IDs. */
export function azureResultsInput(analysis: AccountAnalysis): AnalysisForResults {
  return {
    analysis,
    principalDetails: () => ({ credentials: {} }),
    resourceDetails: (arn) => ({ name: lastName(arn), tags: {} }),
  };
}

/** Analyses a stored collection with this engine, for the results to compare with. */
export function analyseForResults(collected: StoredCollection): AnalysisForResults {
  if (isAzureCollection(collected))
    return azureResultsInput(
      analyzeAzureSubscription((collected as CollectedSubscription).snapshot),
    );
  const model = createAccountModel(collected.snapshot);
  const analysis = analyzeAccount(model, { accounts: [collected.metadata.accountId] });
  return awsResultsInput(analysis, collected);
}

/** A stored snapshot (gzip JSON) analysed again with this engine. */
export async function reanalyseSnapshot(data: Buffer): Promise<AnalysisForResults> {
  return analyseForResults(await readCollectionData(data));
}
