/** The five access levels of the AWS Service Authorization Reference. */
export const AWS_ACCESS_LEVELS = [
  "List",
  "Read",
  "Write",
  "Permissions management",
  "Tagging",
] as const;

export type AwsAccessLevel = (typeof AWS_ACCESS_LEVELS)[number];

/**
 * iam-data writes `Permissions management, Write` and `Tagging, Write` for actions that AWS flags
 * as both; the more specific level is the one AWS documents, so it wins.
 */
export function normaliseAccessLevel(raw: string): AwsAccessLevel {
  const parts = raw.split(",").map((p) => p.trim());
  for (const level of ["Permissions management", "Tagging", "Write", "Read", "List"] as const) {
    if (parts.includes(level)) return level;
  }
  throw new Error(`unknown AWS access level: ${raw}`);
}
