import {
  type AwsActionInfo,
  CAPABILITIES,
  type Capability,
  listAwsActions,
} from "@sightline/capabilities";
import { isAlwaysAllowedAction } from "../authorize/always-allowed.ts";
import { compileGlob, foldCase, matchFoldedGlob } from "../policy/glob.ts";
import type { Statement } from "../policy/policy-types.ts";
import { setBit } from "./bits.ts";

const PATTERN_CACHE_LIMIT = 50_000;

/** The actions of one service prefix: a contiguous index range and the words covering it. */
export interface PrefixWindow {
  prefix: string;
  service: string;
  /** A number per service name (prefixes of one service share it); -1 for the full window. */
  serviceId: number;
  start: number;
  end: number;
  firstWord: number;
  lastWord: number;
  /** Window-sized mask of this prefix's own actions (boundary words hold neighbours too). */
  ownMask: Uint32Array;
}

/**
 * The action catalogue as bit positions. Each distinct action pattern is expanded once
 * and cached; statements get their action set once (NotAction as a complement).
 */
export class ActionIndex {
  readonly actions: readonly AwsActionInfo[];
  readonly words: number;
  readonly windows: ReadonlyMap<string, PrefixWindow>;
  readonly fullWindow: PrefixWindow;
  private readonly patternCache = new Map<string, Uint32Array>();
  private readonly statementCache = new WeakMap<Statement, Uint32Array>();
  private readonly windowCache = new WeakMap<Uint32Array, PrefixWindow[]>();
  private readonly grantingCache = new WeakMap<readonly Statement[], readonly PrefixWindow[]>();
  private readonly capabilityMasks = {} as Record<Capability, Uint32Array>;
  /** Actions that need no permission (`sts:GetCallerIdentity`): in no capability mask. */
  readonly alwaysAllowedMask: Uint32Array;
  private readonly byName = new Map<string, number>();
  /**
   * The actions' names and the windows' prefixes case-folded once (`foldCase`): each new pattern
   * is matched against every catalogue action, and folding them per pattern cost a small
   * account's analysis more than its principals did.
   */
  private readonly foldedActions: readonly string[];
  private readonly foldedPrefixes: ReadonlyMap<PrefixWindow, string>;
  patternsExpanded = 0;

  constructor(actions: readonly AwsActionInfo[] = listAwsActions()) {
    this.actions = [...actions].sort((a, b) =>
      a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0,
    );
    this.words = Math.ceil(this.actions.length / 32) || 1;
    const windows = new Map<string, PrefixWindow>();
    const serviceIds = new Map<string, number>();
    const serviceIdOf = (service: string) => {
      let id = serviceIds.get(service);
      if (id === undefined) {
        id = serviceIds.size;
        serviceIds.set(service, id);
      }
      return id;
    };
    this.actions.forEach((info, i) => {
      this.byName.set(info.action.toLowerCase(), i);
      const w = windows.get(info.prefix);
      if (w) w.end = i + 1;
      else
        windows.set(info.prefix, {
          prefix: info.prefix,
          service: info.service,
          serviceId: serviceIdOf(info.service),
          start: i,
          end: i + 1,
          firstWord: 0,
          lastWord: 0,
          ownMask: new Uint32Array(0),
        });
    });
    for (const w of windows.values()) {
      w.firstWord = w.start >>> 5;
      w.lastWord = ((w.end - 1) >>> 5) + 1;
      w.ownMask = new Uint32Array(w.lastWord - w.firstWord);
      for (let i = w.start; i < w.end; i++) setBit(w.ownMask, i - w.firstWord * 32);
    }
    this.windows = windows;
    this.foldedActions = this.actions.map((info) => foldCase(info.action));
    this.foldedPrefixes = new Map([...windows.values()].map((w) => [w, foldCase(w.prefix)]));
    const fullMask = new Uint32Array(this.words);
    for (let i = 0; i < this.actions.length; i++) setBit(fullMask, i);
    this.fullWindow = {
      prefix: "*",
      service: "*",
      serviceId: -1,
      start: 0,
      end: this.actions.length,
      firstWord: 0,
      lastWord: this.words,
      ownMask: fullMask,
    };
    for (const cap of CAPABILITIES) this.capabilityMasks[cap] = new Uint32Array(this.words);
    this.alwaysAllowedMask = new Uint32Array(this.words);
    this.actions.forEach((info, i) => {
      // Every authenticated principal holds these: they would add one identical row per principal.
      if (isAlwaysAllowedAction(info.action)) setBit(this.alwaysAllowedMask, i);
      else for (const cap of info.capabilities) setBit(this.capabilityMasks[cap], i);
    });
  }

  /** Catalogue actions of the given service prefixes. */
  maskOf(prefixes: readonly string[]): Uint32Array {
    const bits = new Uint32Array(this.words);
    for (const prefix of prefixes) {
      const w = this.windows.get(prefix);
      if (w) for (let i = w.start; i < w.end; i++) setBit(bits, i);
    }
    return bits;
  }

  /** Does a catalogue-wide action set hold an action of this window's own service? */
  namesActionIn(actions: Uint32Array, window: PrefixWindow): boolean {
    for (let w = window.firstWord; w < window.lastWord; w++) {
      if (((actions[w] as number) & (window.ownMask[w - window.firstWord] as number)) !== 0)
        return true;
    }
    return false;
  }

  indexOf(action: string): number | undefined {
    return this.byName.get(action.toLowerCase());
  }

  capabilityMask(cap: Capability): Uint32Array {
    return this.capabilityMasks[cap];
  }

  /** Every capability's mask, in `CAPABILITIES` order. */
  get capabilityMaskList(): readonly Uint32Array[] {
    this.maskList ??= CAPABILITIES.map((cap) => this.capabilityMasks[cap]);
    return this.maskList;
  }
  private maskList: Uint32Array[] | undefined;

  /** Catalogue actions matching one Action pattern (case-insensitive wildcards). */
  expandPattern(pattern: string): Uint32Array {
    const key = pattern.toLowerCase();
    const cached = this.patternCache.get(key);
    if (cached) return cached;
    this.patternsExpanded++;
    // A shared index outlives analyses: keep its cache bounded.
    if (this.patternCache.size >= PATTERN_CACHE_LIMIT) this.patternCache.clear();
    const bits = new Uint32Array(this.words);
    if (key === "*") bits.set(this.fullWindow.ownMask);
    else {
      const colon = key.indexOf(":");
      const prefixPattern = colon < 0 ? key : key.slice(0, colon);
      const prefixGlob = compileGlob(prefixPattern, true);
      const actionGlob = compileGlob(key, true);
      for (const w of this.windows.values()) {
        if (!matchFoldedGlob(prefixGlob, this.foldedPrefixes.get(w) as string)) continue;
        for (let i = w.start; i < w.end; i++)
          if (matchFoldedGlob(actionGlob, this.foldedActions[i] as string)) setBit(bits, i);
      }
    }
    this.patternCache.set(key, bits);
    return bits;
  }

  /** The catalogue actions a statement's Action (or NotAction) covers. */
  actionSet(statement: Statement): Uint32Array {
    const cached = this.statementCache.get(statement);
    if (cached) return cached;
    const bits = new Uint32Array(this.words);
    for (const pattern of statement.action ?? statement.notAction ?? []) {
      const expanded = this.expandPattern(pattern);
      for (let i = 0; i < this.words; i++) bits[i] = (bits[i] as number) | (expanded[i] as number);
    }
    if (statement.notAction) {
      const full = this.fullWindow.ownMask;
      for (let i = 0; i < this.words; i++) bits[i] = ~(bits[i] as number) & (full[i] as number);
    }
    this.statementCache.set(statement, bits);
    return bits;
  }

  /** Windows (service prefixes) in which an action set names at least one action. */
  windowsOf(actions: Uint32Array): PrefixWindow[] {
    const cached = this.windowCache.get(actions);
    if (cached) return cached;
    const out: PrefixWindow[] = [];
    for (const window of this.windows.values())
      if (this.namesActionIn(actions, window)) out.push(window);
    this.windowCache.set(actions, out);
    return out;
  }

  /** Windows in which some Allow statement of a policy names an action. */
  grantingWindowsOf(statements: readonly Statement[]): readonly PrefixWindow[] {
    let windows = this.grantingCache.get(statements);
    if (!windows) {
      const own = new Set<PrefixWindow>();
      for (const statement of statements) {
        if (statement.effect === "Allow")
          for (const w of this.windowsOf(this.actionSet(statement))) own.add(w);
      }
      windows = [...own];
      this.grantingCache.set(statements, windows);
    }
    return windows;
  }
}
