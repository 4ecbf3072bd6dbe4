import { matchGlob, parseArn } from "@sightline/engine";

/**
 * Which of the account's collected resources (buckets, keys, roles) a grant's ARN pattern
 * covers. An S3 object pattern (`bucket/*`, `bucket/logs/*`) covers its bucket.
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
  return (pattern: string): string[] => {
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
}
