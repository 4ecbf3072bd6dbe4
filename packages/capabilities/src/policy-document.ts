/** An AWS IAM policy document (the subset of the grammar this package produces and checks). */
export interface PolicyDocument {
  Version: "2012-10-17";
  Id?: string;
  Statement: PolicyStatement[];
}

export interface PolicyStatement {
  Sid?: string;
  Effect: "Allow" | "Deny";
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Principal?: "*" | Record<string, string | string[]>;
  NotPrincipal?: Record<string, string | string[]>;
  Condition?: Record<string, Record<string, string | string[]>>;
}

/** AWS's managed-policy size limit, counted without white space. */
export const MANAGED_POLICY_MAX_CHARS = 6144;

/** Characters AWS counts against the managed-policy limit: the JSON without white space. */
export function measurePolicySize(doc: PolicyDocument): number {
  return JSON.stringify(doc).replace(/\s/g, "").length;
}
