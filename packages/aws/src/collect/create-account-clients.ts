import { EC2Client } from "@aws-sdk/client-ec2";
import { IAMClient } from "@aws-sdk/client-iam";
import { KMSClient } from "@aws-sdk/client-kms";
import { OrganizationsClient } from "@aws-sdk/client-organizations";
import { S3Client } from "@aws-sdk/client-s3";
import { STSClient } from "@aws-sdk/client-sts";
import type { AwsPartition } from "@sightline/domain";
import type { AwsCredentials } from "../aws-credentials.ts";
import { type AwsClientOptions, sdkClientConfig } from "../client-options.ts";
import { PARTITION_HOME_REGIONS } from "../partitions.ts";

/** The SDK clients of one collection, all signing with the auditor's credentials. */
export interface AccountClients {
  readonly homeRegion: string;
  readonly sts: STSClient;
  readonly iam: IAMClient;
  readonly organizations: OrganizationsClient;
  readonly ec2: EC2Client;
  s3(region: string): S3Client;
  kms(region: string): KMSClient;
  destroy(): void;
}

export function createAccountClients(
  credentials: AwsCredentials,
  partition: AwsPartition,
  options: AwsClientOptions = {},
): AccountClients {
  const homeRegion = PARTITION_HOME_REGIONS[partition];
  const s3Clients = new Map<string, S3Client>();
  const kmsClients = new Map<string, KMSClient>();
  const global = {
    sts: new STSClient(sdkClientConfig("sts", homeRegion, credentials, options)),
    iam: new IAMClient(sdkClientConfig("iam", homeRegion, credentials, options)),
    organizations: new OrganizationsClient(
      sdkClientConfig("organizations", homeRegion, credentials, options),
    ),
    ec2: new EC2Client(sdkClientConfig("ec2", homeRegion, credentials, options)),
  };
  return {
    homeRegion,
    ...global,
    s3: (region) =>
      cached(
        s3Clients,
        region,
        () =>
          new S3Client({
            ...sdkClientConfig("s3", region, credentials, options),
            forcePathStyle: options.s3ForcePathStyle ?? false,
            followRegionRedirects: true,
          }),
      ),
    kms: (region) =>
      cached(
        kmsClients,
        region,
        () => new KMSClient(sdkClientConfig("kms", region, credentials, options)),
      ),
    destroy() {
      for (const client of [
        ...Object.values(global),
        ...s3Clients.values(),
        ...kmsClients.values(),
      ])
        client.destroy();
    },
  };
}

function cached<T>(clients: Map<string, T>, region: string, create: () => T): T {
  let client = clients.get(region);
  if (!client) {
    client = create();
    clients.set(region, client);
  }
  return client;
}
