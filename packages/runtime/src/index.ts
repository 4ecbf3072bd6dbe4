export { BaseConfig, parseConfig } from "./config.ts";
export { estimateEntropyBits, loadOperatorKey, OPERATOR_KEY_MIN_BITS } from "./operator-key.ts";
