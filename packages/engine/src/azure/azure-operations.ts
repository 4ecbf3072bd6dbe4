import {
  type AzureOperationInfo,
  CAPABILITIES,
  type Capability,
  listAzureOperations,
} from "@sightline/capabilities";
import { type CompiledGlob, compileGlobParts, matchCompiledGlob } from "../policy/glob.ts";

/** A (provider, capability) pair: one possible summary row. */
export interface CapabilityPair {
  provider: string;
  providerIndex: number;
  capability: Capability;
}

/**
 * An Azure action or data action pattern as a glob: `*` matches any run of characters (also
 * across `/`), everything else is literal, case-insensitive — Microsoft Learn, 'Understand
 * Azure role definitions', section 'Actions' (wildcards) and 'Operation format'.
 */
export function compileOperationPattern(pattern: string): CompiledGlob {
  const parts = pattern.split("*").flatMap((text, i) =>
    i === 0
      ? [{ text, literal: true }]
      : [
          { text: "*", literal: false },
          { text, literal: true },
        ],
  );
  return compileGlobParts(parts, true);
}

export function matchOperation(glob: CompiledGlob, operation: string): boolean {
  return matchCompiledGlob(glob, operation);
}

/**
 * The Azure operation catalogue as bit positions: operations ordered by provider, each
 * provider a contiguous window, control-plane and data operations told apart. Patterns are
 * expanded once into bit sets and cached.
 */
export class AzureOperationIndex {
  readonly operations: readonly AzureOperationInfo[];
  readonly words: number;
  readonly providers: readonly string[];
  /** Per operation: its provider's index. */
  readonly providerOf: Int32Array;
  readonly pairs: readonly CapabilityPair[];
  /** Per operation: the pair indices of its capabilities. */
  readonly pairsOf: readonly (readonly number[])[];
  /** Per pair: its operations as a bit mask over the words of its provider's window, from `firstWord`. */
  readonly pairMasks: readonly { firstWord: number; bits: Uint32Array }[];
  /** `provider|capability` -> pair index. */
  readonly pairIndex = new Map<string, number>();
  readonly dataMask: Uint32Array;
  readonly controlMask: Uint32Array;
  private readonly byName = new Map<string, number>();
  private readonly providerIndex = new Map<string, number>();
  private readonly windows: { start: number; end: number }[] = [];
  private readonly patternCache = new Map<string, Uint32Array>();
  patternsExpanded = 0;

  constructor(operations: readonly AzureOperationInfo[] = listAzureOperations()) {
    const sorted = [...operations].sort((a, b) => {
      const pa = a.provider.toLowerCase();
      const pb = b.provider.toLowerCase();
      if (pa !== pb) return pa < pb ? -1 : 1;
      const oa = a.operation.toLowerCase();
      const ob = b.operation.toLowerCase();
      return oa < ob ? -1 : oa > ob ? 1 : 0;
    });
    const ops: AzureOperationInfo[] = [];
    for (const op of sorted) {
      const key = op.operation.toLowerCase();
      if (this.byName.has(key)) continue;
      this.byName.set(key, ops.length);
      ops.push(op);
    }
    this.operations = ops;
    this.words = Math.ceil(ops.length / 32) || 1;
    this.providerOf = new Int32Array(ops.length);
    this.dataMask = new Uint32Array(this.words);
    this.controlMask = new Uint32Array(this.words);
    const providers: string[] = [];
    const pairs: CapabilityPair[] = [];
    const pairsOf: number[][] = [];
    ops.forEach((op, i) => {
      const lower = op.provider.toLowerCase();
      let p = this.providerIndex.get(lower);
      if (p === undefined) {
        p = providers.length;
        providers.push(op.provider);
        this.providerIndex.set(lower, p);
        this.windows.push({ start: i, end: i });
      }
      const window = this.windows[p] as { start: number; end: number };
      window.end = i + 1;
      this.providerOf[i] = p;
      const mask = op.isDataAction ? this.dataMask : this.controlMask;
      mask[i >>> 5] = (mask[i >>> 5] as number) | (1 << (i & 31));
      const mine: number[] = [];
      for (const capability of CAPABILITIES) {
        if (!op.capabilities.includes(capability)) continue;
        const key = `${p}|${capability}`;
        let k = this.pairIndex.get(key);
        if (k === undefined) {
          k = pairs.length;
          pairs.push({ provider: op.provider, providerIndex: p, capability });
          this.pairIndex.set(key, k);
        }
        mine.push(k);
      }
      pairsOf.push(mine);
    });
    this.providers = providers;
    this.pairs = pairs;
    this.pairsOf = pairsOf;
    this.pairMasks = pairs.map(({ providerIndex }) => {
      const window = this.windows[providerIndex] as { start: number; end: number };
      const firstWord = window.start >>> 5;
      return { firstWord, bits: new Uint32Array(((window.end - 1) >>> 5) - firstWord + 1) };
    });
    pairsOf.forEach((mine, i) => {
      for (const k of mine) {
        const mask = this.pairMasks[k] as { firstWord: number; bits: Uint32Array };
        const w = (i >>> 5) - mask.firstWord;
        mask.bits[w] = (mask.bits[w] as number) | (1 << (i & 31));
      }
    });
  }

  /**
   * Per pair, the level an operation set gives it: 2 when an operation of the pair is in
   * `any` and `sure`, 1 when one is in `any` only, else 0.
   */
  pairLevels(sure: Uint32Array, any: Uint32Array): Uint8Array {
    const levels = new Uint8Array(this.pairs.length);
    this.pairMasks.forEach(({ firstWord, bits }, k) => {
      let level = 0;
      for (let w = 0; w < bits.length && level < 2; w++) {
        const mask = bits[w] as number;
        const held = (any[firstWord + w] as number) & mask;
        if (((sure[firstWord + w] as number) & held) !== 0) level = 2;
        else if (held !== 0) level = 1;
      }
      levels[k] = level;
    });
    return levels;
  }

  indexOf(operation: string): number | undefined {
    return this.byName.get(operation.toLowerCase());
  }

  providerIndexOf(provider: string): number | undefined {
    return this.providerIndex.get(provider.toLowerCase());
  }

  /** The catalogue operations a pattern matches, of one plane (`data` or control). */
  expand(pattern: string, data: boolean): Uint32Array {
    const lower = pattern.toLowerCase();
    const key = `${data ? "d" : "c"}|${lower}`;
    let bits = this.patternCache.get(key);
    if (bits) return bits;
    this.patternsExpanded++;
    bits = new Uint32Array(this.words);
    const plane = data ? this.dataMask : this.controlMask;
    const star = lower.indexOf("*");
    if (star < 0) {
      const i = this.byName.get(lower);
      if (i !== undefined) bits[i >>> 5] = (bits[i >>> 5] as number) | (1 << (i & 31));
    } else {
      // A provider before the first `*` confines the search to its window.
      const head = lower.slice(0, star);
      const slash = head.indexOf("/");
      const p = slash >= 0 ? this.providerIndex.get(head.slice(0, slash)) : undefined;
      const window =
        slash >= 0
          ? p === undefined
            ? undefined
            : this.windows[p]
          : { start: 0, end: this.operations.length };
      if (window) {
        const glob = compileOperationPattern(lower);
        for (let i = window.start; i < window.end; i++) {
          if (((plane[i >>> 5] as number) >>> (i & 31)) & 1) {
            const name = (this.operations[i] as AzureOperationInfo).operation;
            if (name.toLowerCase().startsWith(head) && matchCompiledGlob(glob, name))
              bits[i >>> 5] = (bits[i >>> 5] as number) | (1 << (i & 31));
          }
        }
      }
    }
    for (let w = 0; w < this.words; w++) bits[w] = (bits[w] as number) & (plane[w] as number);
    this.patternCache.set(key, bits);
    return bits;
  }
}

let shared: AzureOperationIndex | undefined;

/** The catalogue index is pure data; built once per process. */
export function sharedAzureOperationIndex(): AzureOperationIndex {
  shared ??= new AzureOperationIndex();
  return shared;
}
