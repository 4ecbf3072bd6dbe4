import { matchGlob, parseArn } from "@sightline/engine";

/** Patterns whose covered resources are remembered; the memo is cleared when full. */
const MEMO_LIMIT = 10_000;

/**
 * Which of the account's collected resources (buckets, keys, roles) a grant's ARN pattern
 * covers. An S3 object pattern (`bucket/*`, `bucket/logs/*`) covers its bucket. Each pattern is
 * matched once against the candidates: many principals hold grants on the same pattern (the
 * large account's 1.3 M principal-access rows matched thousands of buckets each time).
 */
export function resourceExpander(resources: Iterable<string>) {
  const byService = new Map<string, string[]>();
  for (const arn of resources) {
    const service = parseArn(arn)?.service;
    if (!service) continue;
    const list = byService.get(service) ?? [];
    list.push(arn);
    byService.set(service, list);
  }
  const memo = new Map<string, readonly string[]>();
  const expand = (pattern: string): readonly string[] => {
    const arn = parseArn(pattern);
    const candidates = arn && byService.get(arn.service);
    if (!arn || !candidates) return [];
    let target = pattern;
    if (arn.service === "s3") {
      const slash = arn.resource.indexOf("/");
      if (slash >= 0) target = `arn:${arn.partition}:s3:::${arn.resource.slice(0, slash)}`;
    }
    return candidates.filter((resource) => matchGlob(target, resource));
  };
  return (pattern: string): readonly string[] => {
    let covered = memo.get(pattern);
    if (covered === undefined) {
      covered = expand(pattern);
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(pattern, covered);
    }
    return covered;
  };
}
