/**
 * Credentials that sign AWS requests. Structurally the SDK's `AwsCredentialIdentity`, so the
 * public API does not expose SDK types.
 */
export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
  readonly expiration?: Date;
}

/** STS temporary credentials: what every auditor authentication method yields. */
export interface TemporaryCredentials extends AwsCredentials {
  readonly sessionToken: string;
  readonly expiration: Date;
}
