import { parseArn } from "../arn/parse-arn.ts";
import { matchStatementPrincipal, type PrincipalMatch } from "../authorize/match-principal.ts";
import type { RequestingPrincipal } from "../authorize/requesting-principal.ts";
import type { PrincipalSet, Statement } from "../policy/policy-types.ts";

type ValueKind = "account" | "root" | "id" | "arn";

/** A Principal element's AWS values, each by how `matchAwsPrincipal` reads it. */
export interface IndexedSet {
  set: PrincipalSet;
  values: Map<string, ValueKind>;
  /** Accounts named by ID or root ARN. */
  accounts: string[];
}

/** The account field of an ARN without splitting it (this runs for every trusted principal). */
export function arnAccount(arn: string): string {
  let at = 0;
  for (let colons = 0; colons < 4; colons++) {
    at = arn.indexOf(":", at) + 1;
    if (at === 0) return "";
  }
  const end = arn.indexOf(":", at);
  return end < 0 ? "" : arn.slice(at, end);
}

function indexSet(set: PrincipalSet): IndexedSet {
  const out: IndexedSet = { set, values: new Map(), accounts: [] };
  for (const value of set.aws) {
    let kind: ValueKind = "arn";
    if (/^\d{12}$/.test(value)) kind = "account";
    else if (!value.startsWith("arn:")) kind = "id";
    else if (value.endsWith(":root") && parseArn(value)?.resource === "root") kind = "root";
    out.values.set(value, kind);
    if (kind === "account") out.accounts.push(value);
    else if (kind === "root") out.accounts.push(arnAccount(value));
  }
  return out;
}

/** `matchPrincipalSet` with set look-ups instead of a scan: trusts of hub roles name hundreds of principals. */
function matchIndexed(x: IndexedSet, caller: RequestingPrincipal): PrincipalMatch {
  const { set } = x;
  if (set.any) return "direct";
  const own = caller.kind === "role" ? "role" : "direct";
  const { values } = x;
  if (caller.kind === "root" && values.get(caller.arn) === "root") return "direct";
  if (caller.sessionArn !== undefined && values.get(caller.sessionArn) === "arn") return "direct";
  if (caller.kind === "service" && caller.service && set.service.includes(caller.service))
    return "direct";
  if (
    caller.kind === "federated" &&
    caller.federatedProvider &&
    set.federated.includes(caller.federatedProvider)
  )
    return "direct";
  if (caller.canonicalUser && set.canonicalUser.includes(caller.canonicalUser)) return "direct";
  // A user's ARN or ID is `direct`; a role's is `role` (its boundary still applies).
  if (caller.identityArn !== undefined && values.get(caller.identityArn) === "arn") return own;
  if (caller.uniqueId !== undefined && values.get(caller.uniqueId) === "id") return own;
  if (caller.accountId !== undefined && x.accounts.includes(caller.accountId)) return "account";
  return "none";
}

/** Indexed Principal elements per statement list, for one build. */
export class TrustIndex {
  private readonly cache = new Map<readonly Statement[], (IndexedSet | undefined)[]>();

  /** The Principal elements of a policy's statements, indexed (undefined where a statement has none). */
  indexed(statements: readonly Statement[]): (IndexedSet | undefined)[] {
    let indexed = this.cache.get(statements);
    if (!indexed) {
      indexed = statements.map((s) => (s.principal ? indexSet(s.principal) : undefined));
      this.cache.set(statements, indexed);
    }
    return indexed;
  }

  /**
   * How each statement of a resource policy names the caller, as `matchStatementPrincipal`
   * decides it (statement by statement, in order). Callers with equal matches get equal
   * policy outcomes, outside conditions on who they are.
   */
  matches(statements: readonly Statement[], caller: RequestingPrincipal): PrincipalMatch[] {
    const found = this.indexed(statements);
    return statements.map((s, i) => {
      const x = found[i];
      return x ? matchIndexed(x, caller) : matchStatementPrincipal(s, caller);
    });
  }

  /** `matches` as a short key (one letter per statement). */
  matchKey(statements: readonly Statement[], caller: RequestingPrincipal): string {
    const indexed = this.indexed(statements);
    let key = "";
    for (let i = 0; i < statements.length; i++) {
      const x = indexed[i];
      const s = statements[i] as Statement;
      key += (x ? matchIndexed(x, caller) : matchStatementPrincipal(s, caller))[0];
    }
    return key;
  }
}
