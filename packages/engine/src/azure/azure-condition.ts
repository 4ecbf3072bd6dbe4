/**
 * Azure role assignment conditions (Azure ABAC), read as far as the analysis needs: which
 * actions a condition may refuse. Microsoft Learn, 'Azure role assignment condition format and
 * syntax': a condition is a Boolean expression over `ActionMatches{'<action>'}` (the requested
 * action matches the pattern, `*` a wildcard, as in a role's permissions),
 * `SubOperationMatches{'<subOperation>'}` and attribute expressions (`<attribute> <operator>
 * <value>`, `Exists <attribute>`), joined by `AND`/`&&`, `OR`/`||`, `NOT`/`!` and parentheses;
 * `a AND b OR c` must be parenthesized. An action the condition does not target makes
 * `!(ActionMatches{…})` true, so the whole condition passes for it ('How a condition is
 * evaluated').
 *
 * Only the action tests are decided here: suboperations and attribute expressions depend on the
 * request, so they are unknown (three-valued logic: an `OR` with one true side is true, an `AND`
 * with one false side is false). A condition that does not read as this grammar is `undefined`:
 * the caller keeps every operation conditional.
 */
export type AzureConditionNode =
  /** `ActionMatches{'<pattern>'}`. */
  | { kind: "action"; pattern: string }
  /** Decided by the request: `SubOperationMatches{…}` or an attribute expression. */
  | { kind: "request" }
  | { kind: "not"; operand: AzureConditionNode }
  | { kind: "and" | "or"; operands: AzureConditionNode[] };

type Token =
  | { t: "(" | ")" | "and" | "or" | "not" | "request" }
  | { t: "action"; pattern: string }
  /** A word, a quoted string, a `{…}` list or an attribute: part of an attribute expression. */
  | { t: "operand" };

class ConditionSyntaxError extends Error {}

const MAX_DEPTH = 200;

/** The condition's Boolean structure, or the reason it does not read as Azure's syntax. */
export function parseAzureCondition(
  text: string,
): { node: AzureConditionNode } | { error: string } {
  try {
    const tokens = tokenize(text);
    let at = 0;
    const peek = () => tokens[at];
    const fail = (what: string): never => {
      throw new ConditionSyntaxError(
        at < tokens.length
          ? `${what} at token ${at + 1} of ${tokens.length}`
          : `${what} at the end`,
      );
    };
    const expression = (): AzureConditionNode => {
      const operands = [unary()];
      let op: "and" | "or" | undefined;
      for (let next = peek(); next?.t === "and" || next?.t === "or"; next = peek()) {
        if (op && next.t !== op) fail("AND and OR mixed without parentheses");
        op = next.t;
        at++;
        operands.push(unary());
      }
      return op ? { kind: op, operands } : (operands[0] as AzureConditionNode);
    };
    let depth = 0;
    const unary = (): AzureConditionNode => {
      const token = peek();
      at++;
      // Nesting deep enough to exhaust the stack is no condition Azure would hold.
      if (++depth > MAX_DEPTH) fail("nested too deeply");
      try {
        return operand(token);
      } finally {
        depth--;
      }
    };
    const operand = (token: Token | undefined): AzureConditionNode => {
      switch (token?.t) {
        case "not":
          return { kind: "not", operand: unary() };
        case "(": {
          const inner = expression();
          if (peek()?.t !== ")") fail("')' expected");
          at++;
          return inner;
        }
        case "action":
          return { kind: "action", pattern: token.pattern };
        case "request":
          return { kind: "request" };
        case "operand":
          // An attribute expression: its operands and operator, up to AND, OR or ')'.
          while (peek()?.t === "operand") at++;
          return { kind: "request" };
        default:
          return fail(token ? `unexpected '${token.t}'` : "unexpected end");
      }
    };
    const node = expression();
    if (at < tokens.length) fail("end expected");
    return { node };
  } catch (error) {
    if (error instanceof ConditionSyntaxError) return { error: error.message };
    throw error;
  }
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const fail = (what: string): never => {
    throw new ConditionSyntaxError(`${what} at character ${i + 1}`);
  };
  /** The end (exclusive) of a quoted string starting at `from`; `\` escapes a character. */
  const quoted = (from: number): number => {
    for (let j = from + 1; j < text.length; j++) {
      if (text[j] === "\\") j++;
      else if (text[j] === "'") return j + 1;
    }
    return fail("unterminated string");
  };
  /** The end (exclusive) of a `{…}` list starting at `from`, quoted strings skipped. */
  const braced = (from: number): number => {
    for (let j = from + 1; j < text.length; j++) {
      if (text[j] === "'") j = quoted(j) - 1;
      else if (text[j] === "}") return j + 1;
    }
    return fail("unterminated '{'");
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "(" || c === ")") {
      tokens.push({ t: c });
      i++;
    } else if (c === "!") {
      tokens.push({ t: "not" });
      i++;
    } else if (text.startsWith("&&", i) || text.startsWith("||", i)) {
      tokens.push({ t: c === "&" ? "and" : "or" });
      i += 2;
    } else if (c === "'") {
      i = quoted(i);
      tokens.push({ t: "operand" });
    } else if (c === "{") {
      i = braced(i);
      tokens.push({ t: "operand" });
    } else {
      // A word, with any `[…]` in it kept whole (`@Resource[…/tags:Project<$key_case_sensitive$>]`).
      const start = i;
      while (i < text.length && !/[\s()'{}!&|]/.test(text[i] as string)) {
        if (text[i] === "[") {
          const close = text.indexOf("]", i);
          if (close < 0) fail("unterminated '['");
          i = close;
        }
        i++;
      }
      if (i === start) fail(`unexpected '${c}'`);
      const word = text.slice(start, i);
      const upper = word.toUpperCase();
      if (upper === "AND" || upper === "OR" || upper === "NOT")
        tokens.push({ t: upper === "AND" ? "and" : upper === "OR" ? "or" : "not" });
      else if (upper === "ACTIONMATCHES" || upper === "SUBOPERATIONMATCHES") {
        // The function's argument: one quoted pattern in braces.
        while (i < text.length && /\s/.test(text[i] as string)) i++;
        if (text[i] !== "{") fail(`'{' expected after ${word}`);
        const end = braced(i);
        const m = /^\{\s*'((?:[^'\\]|\\.)*)'\s*\}$/.exec(text.slice(i, end));
        const pattern = m ? (m[1] as string) : fail(`${word} takes one quoted pattern`);
        i = end;
        tokens.push(
          upper === "ACTIONMATCHES"
            ? { t: "action", pattern: pattern.replace(/\\(.)/g, "$1") }
            : { t: "request" },
        );
      } else tokens.push({ t: "operand" });
    }
  }
  return tokens;
}

/**
 * The condition's outcome for one action: true when it passes whatever the request, false when
 * it refuses whatever the request, undefined when the request decides.
 */
export function conditionOutcome(
  node: AzureConditionNode,
  actionMatches: (pattern: string) => boolean,
): boolean | undefined {
  switch (node.kind) {
    case "action":
      return actionMatches(node.pattern);
    case "request":
      return undefined;
    case "not": {
      const v = conditionOutcome(node.operand, actionMatches);
      return v === undefined ? undefined : !v;
    }
    default: {
      // AND: false if one side is, true if all are; OR the other way round.
      const decisive = node.kind === "or";
      let unknown = false;
      for (const operand of node.operands) {
        const v = conditionOutcome(operand, actionMatches);
        if (v === decisive) return decisive;
        if (v === undefined) unknown = true;
      }
      return unknown ? undefined : !decisive;
    }
  }
}

/**
 * The same over a bit set of operations: the operations for which the condition passes
 * whatever the request. `matching(pattern)` gives the operations an action pattern matches.
 */
export function conditionPassingBits(
  node: AzureConditionNode,
  matching: (pattern: string) => Uint32Array,
  words: number,
): Uint32Array {
  return outcomeBits(node, matching, words).yes;
}

/** Per operation: surely true (`yes`), surely false (`no`), else unknown. */
function outcomeBits(
  node: AzureConditionNode,
  matching: (pattern: string) => Uint32Array,
  words: number,
): { yes: Uint32Array; no: Uint32Array } {
  switch (node.kind) {
    case "action": {
      const yes = matching(node.pattern);
      return { yes, no: yes.map((w) => ~w) };
    }
    case "request":
      return { yes: new Uint32Array(words), no: new Uint32Array(words) };
    case "not": {
      const { yes, no } = outcomeBits(node.operand, matching, words);
      return { yes: no, no: yes };
    }
    default: {
      const parts = node.operands.map((o) => outcomeBits(o, matching, words));
      const and = node.kind === "and";
      const yes = new Uint32Array(words).fill(and ? 0xffffffff : 0);
      const no = new Uint32Array(words).fill(and ? 0 : 0xffffffff);
      for (const part of parts)
        for (let w = 0; w < words; w++) {
          const y = part.yes[w] as number;
          const n = part.no[w] as number;
          yes[w] = and ? (yes[w] as number) & y : (yes[w] as number) | y;
          no[w] = and ? (no[w] as number) | n : (no[w] as number) & n;
        }
      return { yes, no };
    }
  }
}
