import { conditionPassingBits } from "./azure-condition.ts";
import type { AzureAssignment, AzureDeny, PermissionBlock } from "./azure-model.ts";
import type { AzureOperationIndex } from "./azure-operations.ts";

/** The operations of a role or deny: those granted (or denied) whatever the request, and any. */
export interface OperationBits {
  sure: Uint32Array;
  any: Uint32Array;
}

export function orInto(target: Uint32Array, bits: Uint32Array): void {
  for (let w = 0; w < target.length; w++) target[w] = (target[w] as number) | (bits[w] as number);
}

/** Whether operation `i` is in `bits`. */
export function hasOperation(bits: Uint32Array, i: number): boolean {
  return (((bits[i >>> 5] as number) >>> (i & 31)) & 1) === 1;
}

/**
 * The operations of role assignments and deny assignments as bit sets over the catalogue
 * (one bit per operation), computed once per role (and condition) and per deny.
 */
export class AzureOperationBits {
  /** Words per bit set. */
  readonly words: number;
  private readonly byRoleKey = new Map<string, OperationBits>();
  private readonly byDeny = new Map<AzureDeny, OperationBits>();
  /** Per distinct condition text: a number for the keys, and the operations it surely passes. */
  private readonly conditions = new Map<string, { id: number; passes: Uint32Array }>();

  constructor(private readonly index: AzureOperationIndex) {
    this.words = index.words;
  }

  /** What tells an assignment's bits apart: its role, and its condition if any. */
  roleKey(assignment: AzureAssignment): string {
    return assignment.condition === undefined
      ? `${assignment.role.index}`
      : `${assignment.role.index}c${this.conditionOf(assignment as AzureAssignment & { condition: string }).id}`;
  }

  /** The operations an assignment grants: its role's, under its condition if any. */
  ofAssignment(assignment: AzureAssignment): OperationBits {
    if (assignment.condition === undefined)
      return this.bitsOf(assignment.role.blocks, this.roleKey(assignment), false);
    const c = this.conditionOf(assignment as AzureAssignment & { condition: string });
    return this.bitsOf(assignment.role.blocks, this.roleKey(assignment), c.passes);
  }

  /** The operations a deny assignment denies (all of them conditionally under a condition). */
  ofDeny(deny: AzureDeny): OperationBits {
    let bits = this.byDeny.get(deny);
    if (!bits) {
      bits = this.bitsOf(
        deny.blocks,
        `deny${deny.index}${deny.condition ? "c" : ""}`,
        deny.condition !== undefined,
      );
      this.byDeny.set(deny, bits);
    }
    return bits;
  }

  /** One permission block's operations: its actions less its notActions, its data actions less its notDataActions. */
  private blockBits(b: PermissionBlock): Uint32Array {
    const union = (patterns: readonly string[], data: boolean) => {
      const out = new Uint32Array(this.words);
      for (const p of patterns) orInto(out, this.index.expand(p, data));
      return out;
    };
    const control = union(b.actions, false);
    const notControl = union(b.notActions, false);
    const data = union(b.dataActions, true);
    const notData = union(b.notDataActions, true);
    const out = new Uint32Array(this.words);
    for (let w = 0; w < this.words; w++)
      out[w] =
        ((control[w] as number) & ~(notControl[w] as number)) |
        ((data[w] as number) & ~(notData[w] as number));
    return out;
  }

  /**
   * A role's operations, sure (blocks without condition, under the assignment's condition only
   * the operations it passes whatever the request) and any; `notActions` subtract inside their
   * own block only. `condition`: true when a condition may refuse every operation.
   */
  private bitsOf(
    blocks: readonly PermissionBlock[],
    key: string,
    condition: boolean | Uint32Array,
  ): OperationBits {
    let bits = this.byRoleKey.get(key);
    if (!bits) {
      bits = { sure: new Uint32Array(this.words), any: new Uint32Array(this.words) };
      for (const b of blocks) {
        const block = this.blockBits(b);
        orInto(bits.any, block);
        if (b.condition || condition === true) continue;
        if (condition)
          for (let w = 0; w < this.words; w++)
            block[w] = (block[w] as number) & (condition[w] as number);
        orInto(bits.sure, block);
      }
      this.byRoleKey.set(key, bits);
    }
    return bits;
  }

  private conditionOf(assignment: AzureAssignment & { condition: string }) {
    let c = this.conditions.get(assignment.condition);
    if (!c) {
      // An action test matches operations of both planes; a condition not read passes none surely.
      const matching = (pattern: string) => {
        const control = this.index.expand(pattern, false);
        const data = this.index.expand(pattern, true);
        return control.map((w, i) => w | (data[i] as number));
      };
      c = {
        id: this.conditions.size,
        passes: assignment.conditionNode
          ? conditionPassingBits(assignment.conditionNode, matching, this.words)
          : new Uint32Array(this.words),
      };
      this.conditions.set(assignment.condition, c);
    }
    return c;
  }
}
