import type { CollectedAccount } from "@sightline/aws";
import type { AccountModel } from "@sightline/engine";

/**
 * What an account's last event step in this worker left: the account as it patched it, and the
 * engine's model of it. The next step of the account starts from them when the account's newest
 * stored snapshot is still that step's (`executionId`), instead of reading the snapshot back,
 * inflating and parsing it and modelling it again.
 * Neither is changed once kept: `patchCollection` copies what it patches, and the engine reads
 * its models only. The account kept is what its stored JSON reads back as, but for members whose
 * value is undefined (held by the aws package's incremental equivalence test).
 */
export interface StepBase {
  executionId: string;
  collected: CollectedAccount;
  model: AccountModel;
}

/** An account's key. */
interface AccountKey {
  customerId: string;
  accountId: string;
}

const keyOf = (key: AccountKey) => `${key.customerId} ${key.accountId}`;

/** How many principals a base holds: what its memory grows with. */
const weightOf = (base: StepBase) => Math.max(1, base.model.principals.size);

/**
 * The bases this worker keeps, one per account, the least recently used dropped first once they
 * hold more than `maxPrincipals` principals together (0 keeps none). Steps of an account run
 * one at a time (its job's lease), so a base is taken by one step at a time.
 */
export class StepBases {
  readonly #bases = new Map<string, StepBase>();
  #weight = 0;

  constructor(readonly maxPrincipals: number) {}

  /** The base kept for the account if its newest snapshot is still `executionId`'s. */
  take(key: AccountKey, executionId: string): StepBase | undefined {
    const base = this.#bases.get(keyOf(key));
    if (!base || base.executionId !== executionId) return undefined;
    // Most recently used last.
    this.#bases.delete(keyOf(key));
    this.#bases.set(keyOf(key), base);
    return base;
  }

  /** Keeps the account's newest base (what a step that succeeded stored and analysed). */
  keep(key: AccountKey, base: StepBase): void {
    this.drop(key);
    const weight = weightOf(base);
    if (weight > this.maxPrincipals) return;
    this.#bases.set(keyOf(key), base);
    this.#weight += weight;
    for (const [k, oldest] of this.#bases) {
      if (this.#weight <= this.maxPrincipals) break;
      this.#bases.delete(k);
      this.#weight -= weightOf(oldest);
    }
  }

  /** Forgets the account's base. */
  drop(key: AccountKey): void {
    const base = this.#bases.get(keyOf(key));
    if (!base) return;
    this.#bases.delete(keyOf(key));
    this.#weight -= weightOf(base);
  }

  /** Accounts and principals kept (for tests and logs). */
  get size(): { accounts: number; principals: number } {
    return { accounts: this.#bases.size, principals: this.#weight };
  }
}
