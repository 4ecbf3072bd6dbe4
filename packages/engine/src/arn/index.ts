export { type Arn, accountOfArn, parseArn } from "./parse-arn.ts";
export { isPartition, PARTITIONS, type Partition } from "./partitions.ts";
