/**
 * The AWS partitions Sightline analyses: the one list every other copy (the domain's provider
 * names, the collector's endpoints, ARN validation) is derived from or tested against.
 */
export const PARTITIONS = ["aws", "aws-us-gov", "aws-iso", "aws-iso-b"] as const;
export type Partition = (typeof PARTITIONS)[number];

export function isPartition(value: string): value is Partition {
  return (PARTITIONS as readonly string[]).includes(value);
}
