import type { KeyLookup, KeyResolver } from "../policy/policy-variables.ts";
import type { AccountModel, PrincipalRecord } from "../snapshot/account-model.ts";
import type { AuthorizationRequest } from "./authorization-request.ts";
import type { RequestingPrincipal } from "./requesting-principal.ts";

const ABSENT: KeyLookup = { state: "absent" };
const UNKNOWN: KeyLookup = { state: "unknown" };

function present(...values: string[]): KeyLookup {
  return { state: "present", values };
}

/**
 * Context keys for one request: the caller's values first, then the global keys the
 * engine derives from the snapshot (principal ARN, account, tags, org, resource
 * account); anything else is unknown unless the caller chose `missingKeys: "absent"`.
 */
export function createKeyResolver(
  model: AccountModel,
  request: AuthorizationRequest,
  caller: RequestingPrincipal,
  record: PrincipalRecord | undefined,
  resourceAccount: string | undefined,
  sessionTags?: Readonly<Record<string, string>>,
): KeyResolver {
  const given = new Map<string, KeyLookup>();
  for (const [key, value] of Object.entries(request.context ?? {})) {
    const list = Array.isArray(value) ? value : [value];
    given.set(key.toLowerCase(), present(...list.map(String)));
  }
  const fallback = request.missingKeys === "absent" ? ABSENT : UNKNOWN;
  const cache = new Map<string, KeyLookup>();
  return (key: string) => {
    const lower = key.toLowerCase();
    const known = given.get(lower) ?? cache.get(lower);
    if (known) return known;
    const derived =
      sessionTag(lower, sessionTags) ??
      deriveKey(lower, model, caller, record, resourceAccount, request.sessionName) ??
      fallback;
    cache.set(lower, derived);
    return derived;
  };
}

function deriveKey(
  key: string,
  model: AccountModel,
  caller: RequestingPrincipal,
  record: PrincipalRecord | undefined,
  resourceAccount: string | undefined,
  sessionName: string | undefined,
): KeyLookup | undefined {
  const iamCaller = caller.kind === "user" || caller.kind === "role" || caller.kind === "root";
  switch (key) {
    case "aws:principalarn":
      return caller.kind === "service" || caller.kind === "anonymous"
        ? ABSENT
        : present(caller.identityArn ?? caller.arn);
    case "aws:principalaccount":
      return caller.accountId
        ? present(caller.accountId)
        : caller.kind === "service"
          ? ABSENT
          : undefined;
    case "aws:principalisawsservice":
      return present(caller.kind === "service" ? "true" : "false");
    case "aws:principalservicename":
      return caller.kind === "service" && caller.service
        ? present(caller.service)
        : iamCaller
          ? ABSENT
          : undefined;
    case "aws:principaltype":
      return principalType(caller);
    case "aws:username":
      return caller.kind === "user" && record
        ? present(record.name)
        : iamCaller
          ? ABSENT
          : undefined;
    case "aws:userid":
      if (caller.kind === "user" && record) return present(record.id);
      if (caller.kind === "role" && record && sessionName !== undefined)
        return present(`${record.id}:${sessionName}`);
      if (caller.kind === "root" && caller.accountId) return present(caller.accountId);
      return undefined;
    case "aws:principalorgid": {
      const account = caller.accountId ? model.accounts.get(caller.accountId) : undefined;
      return account?.organizationId ? present(account.organizationId) : undefined;
    }
    case "aws:resourceaccount":
      return resourceAccount ? present(resourceAccount) : undefined;
    default:
      if (key.startsWith("aws:principaltag/") && record) {
        const wanted = key.slice("aws:principaltag/".length);
        const entry = Object.entries(record.tags).find(([k]) => k.toLowerCase() === wanted);
        return entry ? present(entry[1]) : ABSENT;
      }
      return undefined;
  }
}

/** A session tag overrides the role's tag of the same key (keys compared case-insensitively). */
function sessionTag(
  key: string,
  tags: Readonly<Record<string, string>> | undefined,
): KeyLookup | undefined {
  if (!tags || !key.startsWith("aws:principaltag/")) return undefined;
  const wanted = key.slice("aws:principaltag/".length);
  const entry = Object.entries(tags).find(([k]) => k.toLowerCase() === wanted);
  return entry ? present(entry[1]) : undefined;
}

function principalType(caller: RequestingPrincipal): KeyLookup | undefined {
  switch (caller.kind) {
    case "user":
      return present("User");
    case "role":
      return present("AssumedRole");
    case "root":
      return present("Account");
    case "anonymous":
      return present("Anonymous");
    case "federated":
      return present("FederatedUser");
    default:
      return undefined;
  }
}
