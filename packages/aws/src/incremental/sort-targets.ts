import type { AwsEventTarget } from "@sightline/domain";

/** The targets without repeats: a user's credentials are read if any target asks for them. */
export function sortTargets(targets: readonly AwsEventTarget[]) {
  const wanted = {
    users: new Map<string, boolean>(),
    roles: new Set<string>(),
    groups: new Set<string>(),
    policies: new Set<string>(),
    buckets: new Set<string>(),
    keys: new Map<string, { keyId: string; region: string }>(),
    organization: false,
  };
  for (const target of targets) {
    if (target.kind === "user") {
      wanted.users.set(
        target.name,
        (wanted.users.get(target.name) ?? false) || target.credentials === true,
      );
    } else if (target.kind === "role") wanted.roles.add(target.name);
    else if (target.kind === "group") wanted.groups.add(target.name);
    else if (target.kind === "managed-policy") wanted.policies.add(target.arn);
    else if (target.kind === "bucket") wanted.buckets.add(target.name);
    else if (target.kind === "key") {
      // An event may name the key by ARN: its ID is the ARN's last part, its region the ARN's.
      const arn = /^arn:[^:]+:kms:([^:]+):\d+:key\/(.+)$/.exec(target.keyId);
      const key = arn ? { region: arn[1] ?? target.region, keyId: arn[2] ?? target.keyId } : target;
      wanted.keys.set(`${key.region}/${key.keyId}`, { keyId: key.keyId, region: key.region });
    } else wanted.organization = true;
  }
  return wanted;
}
