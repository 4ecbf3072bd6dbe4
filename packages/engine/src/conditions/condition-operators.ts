// One file per operator; this table is the only place that lists them.
import type { ConditionOperator } from "./condition-operator.ts";
import { arnEquals } from "./operators/arn-equals.ts";
import { arnLike } from "./operators/arn-like.ts";
import { arnNotEquals } from "./operators/arn-not-equals.ts";
import { arnNotLike } from "./operators/arn-not-like.ts";
import { binaryEquals } from "./operators/binary-equals.ts";
import { bool } from "./operators/bool.ts";
import { dateEquals } from "./operators/date-equals.ts";
import { dateGreaterThan } from "./operators/date-greater-than.ts";
import { dateGreaterThanEquals } from "./operators/date-greater-than-equals.ts";
import { dateLessThan } from "./operators/date-less-than.ts";
import { dateLessThanEquals } from "./operators/date-less-than-equals.ts";
import { dateNotEquals } from "./operators/date-not-equals.ts";
import { ipAddress } from "./operators/ip-address.ts";
import { notIpAddress } from "./operators/not-ip-address.ts";
import { nullOperator } from "./operators/null.ts";
import { numericEquals } from "./operators/numeric-equals.ts";
import { numericGreaterThan } from "./operators/numeric-greater-than.ts";
import { numericGreaterThanEquals } from "./operators/numeric-greater-than-equals.ts";
import { numericLessThan } from "./operators/numeric-less-than.ts";
import { numericLessThanEquals } from "./operators/numeric-less-than-equals.ts";
import { numericNotEquals } from "./operators/numeric-not-equals.ts";
import { stringEquals } from "./operators/string-equals.ts";
import { stringEqualsIgnoreCase } from "./operators/string-equals-ignore-case.ts";
import { stringLike } from "./operators/string-like.ts";
import { stringNotEquals } from "./operators/string-not-equals.ts";
import { stringNotEqualsIgnoreCase } from "./operators/string-not-equals-ignore-case.ts";
import { stringNotLike } from "./operators/string-not-like.ts";

const OPERATORS: readonly ConditionOperator[] = [
  arnEquals,
  arnLike,
  arnNotEquals,
  arnNotLike,
  binaryEquals,
  bool,
  dateEquals,
  dateGreaterThanEquals,
  dateGreaterThan,
  dateLessThanEquals,
  dateLessThan,
  dateNotEquals,
  ipAddress,
  notIpAddress,
  nullOperator,
  numericEquals,
  numericGreaterThanEquals,
  numericGreaterThan,
  numericLessThanEquals,
  numericLessThan,
  numericNotEquals,
  stringEqualsIgnoreCase,
  stringEquals,
  stringLike,
  stringNotEqualsIgnoreCase,
  stringNotEquals,
  stringNotLike,
];

const BY_NAME = new Map(OPERATORS.map((op) => [op.name.toLowerCase(), op]));

/** Looks an operator up by its base name (without set prefix or `IfExists`), case-insensitively. */
export function findConditionOperator(name: string): ConditionOperator | undefined {
  return BY_NAME.get(name.toLowerCase());
}
