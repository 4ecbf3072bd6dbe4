import type { ResourceInfo } from "../authorize/find-resource-policy.ts";
import type { OrganizationScope } from "../authorize/organization-scope.ts";
import type { RequestingPrincipal } from "../authorize/requesting-principal.ts";
import type { PrincipalRecord } from "../snapshot/account-model.ts";

/** A role as the target of an assume request: its ARN and the trust policy that governs it. */
export interface AssumeTarget {
  arn: string;
  info: ResourceInfo;
}

/** The principal that asks to assume a role, with what the graph builder knows of it. */
export interface AssumingPrincipal {
  /** The requesting principal of the assume request. */
  caller: RequestingPrincipal;
  /** Its IAM user or role in the model (none for principals outside the snapshots). */
  record?: PrincipalRecord;
  /** A principal outside the snapshots, whose own account is taken to allow it. */
  identityAssumed?: boolean;
  /** The account node: any principal of the account, so what tells principals apart is unknown. */
  anyPrincipal?: boolean;
  /** Organization scopes by resource account, filled by the evaluator (shared by a class of callers). */
  scopes?: Map<string | undefined, OrganizationScope>;
}

/**
 * An `AssumingPrincipal` whose objects all have one shape, caller included: the builder reads
 * them hundreds of thousands of times, and mixed shapes make V8's property access slow.
 */
export function assumingPrincipal(
  caller: RequestingPrincipal,
  record?: PrincipalRecord,
  flags: { identityAssumed?: boolean; anyPrincipal?: boolean } = {},
): AssumingPrincipal {
  const c: RequestingPrincipal = {
    kind: caller.kind,
    arn: caller.arn,
    accountId: caller.accountId,
    partition: caller.partition,
    identityArn: caller.identityArn,
    sessionArn: caller.sessionArn,
    uniqueId: caller.uniqueId,
    hasBoundary: caller.hasBoundary,
    service: caller.service,
    federatedProvider: caller.federatedProvider,
    canonicalUser: caller.canonicalUser,
  };
  return {
    caller: c,
    record,
    identityAssumed: flags.identityAssumed ?? false,
    anyPrincipal: flags.anyPrincipal ?? false,
    scopes: undefined,
  };
}
