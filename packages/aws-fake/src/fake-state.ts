import { randomBytes } from "node:crypto";
import type { AlterationKind, FaultKind } from "./fake-errors.ts";
import type { FakeAccountModel } from "./fake-model.ts";
import type { FakeRequest, FakeService } from "./fake-request.ts";
import type { FakeResponse } from "./protocols/responses.ts";
import type { PartDigest } from "./services/part-digest.ts";
import type { FakeQueues } from "./services/sqs-queues.ts";

/** A principal whose access key the fake accepts. */
export interface FakeSession {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
  readonly arn: string;
  readonly accountId: string;
  readonly expiresAt?: Date;
}

/** One call as the fake saw it. */
export interface RecordedCall {
  readonly service: FakeService;
  readonly operation: string;
  readonly region: string;
  /** The access key ID that signed the request. */
  readonly accessKeyId: string;
  /** The bucket, key, role or target the call concerned, when it has one. */
  readonly resource?: string;
  /** The object key of an S3 object operation (the destination of a copy). */
  readonly key?: string;
  /** Lower-case request headers, without the signature and session token. */
  readonly headers: Readonly<Record<string, string>>;
  /** The HTTP status the fake answered. */
  status: number;
}

/** An object written to a fake bucket, with the headers of the write. */
export interface StoredObject {
  readonly bucket: string;
  readonly key: string;
  /** The bytes; empty when the fake keeps no bodies (`storeBodies`): `size` and `sha256` stay. */
  readonly body: Buffer;
  readonly size: number;
  /** SHA-256 of the bytes, lower-case hex. */
  readonly sha256: string;
  readonly etag: string;
  /** Lower-case request headers: `content-type`, `x-amz-server-side-encryption`, … */
  readonly headers: Readonly<Record<string, string>>;
  readonly accessKeyId: string;
  /** Whether it arrived as a multipart upload. */
  readonly multipart: boolean;
  /**
   * The SHA-256 checksum S3 reports for it: base64 of the digest, or `<base64>-<parts>` (the
   * digest of the parts' digests) for a multipart upload; absent when the write asked for none.
   */
  readonly checksumSha256?: string;
}

export interface MultipartUpload {
  readonly bucket: string;
  readonly key: string;
  readonly headers: Readonly<Record<string, string>>;
  /** When CreateMultipartUpload started it. */
  readonly initiated: Date;
  /** `x-amz-checksum-algorithm` of CreateMultipartUpload, upper-case (`SHA256`). */
  readonly checksumAlgorithm?: string;
  /** Bodies of the parts by number, until the upload completes. */
  readonly parts: Map<number, Buffer>;
  /** SHA-256 (hex) of each part as stored, by number, bodies kept or not. */
  readonly partSha256: Map<number, string>;
  /** When the object's bytes are not kept: its digest, fed part by part instead of `parts`. */
  readonly digest?: PartDigest;
}

/** Which objects keep their bytes: all (default), none, or those a predicate accepts. */
export type StoreBodies = boolean | ((object: { bucket: string; key: string }) => boolean);

export interface Fault {
  /** Default: any service with an operation of that name. */
  readonly service?: FakeService;
  /** The API operation, e.g. `GetAccountAuthorizationDetails`, or `*` for every one. */
  readonly operation: string;
  readonly kind: FaultKind;
  /** How many calls fail. Default: every call from now on. */
  readonly times?: number;
  /** How many matching calls succeed before the fault applies ("fail after N"). Default 0. */
  readonly after?: number;
  /** Only calls on this bucket name, key ID, role ARN or organization target. */
  readonly resource?: string;
  /** `delay`: how long each matching call waits before it is answered. Default 60 s. */
  readonly delayMs?: number;
}

export interface FakeState {
  /** Replaced, never changed in place, by the control (`fake.control`). */
  model: FakeAccountModel;
  readonly sessions: Map<string, FakeSession>;
  readonly objects: Map<string, StoredObject>;
  readonly uploads: Map<string, MultipartUpload>;
  readonly storeBodies: StoreBodies;
  readonly faults: { fault: Fault; remaining: number; toPass: number }[];
  readonly calls: RecordedCall[];
  /** External IDs trusted besides the model's, by role ARN (`trustExternalId`). */
  readonly trustedExternalIds: Map<string, Set<string>>;
  /** Findings imported into Security Hub, in arrival order (a re-import replaces its finding). */
  readonly findings: ImportedFinding[];
  /** Wraps KMS data keys, so ciphertexts are opaque and tamper-evident. */
  readonly kmsSecret: Buffer;
  credentialReportCalls: number;
  /** SQS queues by `<account>/<name>`. */
  readonly queues: FakeQueues;
}

/** A finding as Security Hub keeps it: where it was imported, by which caller. */
export interface ImportedFinding {
  readonly region: string;
  /** The account of the session that imported it. */
  readonly accountId: string;
  /** The ARN of that session. */
  readonly importedBy: string;
  readonly finding: Readonly<Record<string, unknown>>;
}

/** What a service handler gets for one call. */
export interface FakeCall {
  readonly request: FakeRequest;
  readonly operation: string;
  readonly session: FakeSession;
  readonly state: FakeState;
  readonly requestId: string;
  /** A fault that lets this call succeed but alters what it does. */
  readonly alteration?: AlterationKind;
}

export interface FakeServiceHandler {
  /** The operation a request calls and the resource it concerns. */
  identify(request: FakeRequest): { operation: string; resource?: string; key?: string };
  handle(call: FakeCall): FakeResponse | Promise<FakeResponse>;
}

/** A random identifier of upper-case letters and digits, as AWS key IDs are. */
export function randomId(prefix: string, length: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bytes = randomBytes(length);
  return prefix + Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join("");
}

export function partitionOf(state: FakeState): string {
  return state.model.partition ?? "aws";
}
