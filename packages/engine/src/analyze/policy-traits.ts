import type { Statement } from "../policy/policy-types.ts";

const PRINCIPAL_KEYS = ["aws:username", "aws:userid", "aws:principalarn", "aws:principaltag/"];

/** Condition keys whose value the engine derives from the principal itself. */
export function isPrincipalKey(key: string): boolean {
  const lower = key.toLowerCase();
  return PRINCIPAL_KEYS.some((k) => lower.startsWith(k));
}

/**
 * Whether a policy's outcome can differ between principals of one account and kind:
 * policy variables, or conditions on the principal's name, ID, ARN or tags. Such
 * policies are evaluated per principal; all others are shared.
 */
export function dependsOnPrincipal(statements: readonly Statement[]): boolean {
  for (const s of statements) {
    for (const r of [...(s.resource ?? []), ...(s.notResource ?? [])])
      if (r.includes("${")) return true;
    for (const c of s.conditions) {
      if (isPrincipalKey(c.key)) return true;
      if (c.values.some((v) => v.includes("${"))) return true;
    }
  }
  return false;
}

/**
 * Small integer IDs for policy contents, so policy sets hash to short keys. Equal
 * contents get one ID: identical inline policies of different principals are shared.
 */
export class PolicyIds {
  private readonly ids = new WeakMap<readonly Statement[], number>();
  private readonly byContent = new Map<string, number>();
  private readonly dependent = new WeakMap<readonly Statement[], boolean>();

  idOf(statements: readonly Statement[]): number {
    let id = this.ids.get(statements);
    if (id === undefined) {
      const content = JSON.stringify(statements);
      id = this.byContent.get(content);
      if (id === undefined) {
        id = this.byContent.size + 1;
        this.byContent.set(content, id);
      }
      this.ids.set(statements, id);
    }
    return id;
  }

  isDependent(statements: readonly Statement[]): boolean {
    let d = this.dependent.get(statements);
    if (d === undefined) {
      d = dependsOnPrincipal(statements);
      this.dependent.set(statements, d);
    }
    return d;
  }
}
