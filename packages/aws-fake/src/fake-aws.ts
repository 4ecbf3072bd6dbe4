import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { accountOfArn } from "@sightline/engine/arn";
import { createFakeControl, type FakeControl } from "./control/fake-control.ts";
import { FakeAwsError, serviceError } from "./fake-errors.ts";
import { addFault, isAlteration, isDelay, takeMatchingFault } from "./fake-faults.ts";
import type { FakeAccountModel, FakeBucket } from "./fake-model.ts";
import {
  type FakeRequest,
  type FakeService,
  readFakeRequest,
  visibleHeaders,
} from "./fake-request.ts";
import {
  type FakeServiceHandler,
  type FakeSession,
  type FakeState,
  type Fault,
  type ImportedFinding,
  type RecordedCall,
  randomId,
  type StoreBodies,
  type StoredObject,
} from "./fake-state.ts";
import { errorResponse, type FakeResponse } from "./protocols/responses.ts";
import { fakeEc2 } from "./services/ec2.ts";
import { fakeIam } from "./services/iam.ts";
import { fakeKms } from "./services/kms.ts";
import { fakeOrganizations } from "./services/organizations.ts";
import { fakeS3 } from "./services/s3.ts";
import { findBucket, storeObject } from "./services/s3-store.ts";
import { fakeSecurityHub } from "./services/securityhub.ts";
import { fakeSqs } from "./services/sqs.ts";
import { createQueue, queueOfUrl, sendMessage } from "./services/sqs-queues.ts";
import { fakeSts } from "./services/sts.ts";

/**
 * Client options that send every SDK client to the fake: structurally `@sightline/aws`'s
 * `AwsClientOptions` (the tests of that package pass them where it expects those), declared here
 * so that the fake does not depend on the package it is a fake for (a dependency cycle).
 */
export interface FakeClientOptions {
  readonly endpoints: Readonly<Record<FakeService, string>>;
  readonly s3ForcePathStyle: true;
}

/** Long-term credentials: structurally `@sightline/aws`'s `AwsCredentials`. */
export interface FakeCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** A session's credentials: structurally `@sightline/aws`'s `TemporaryCredentials`. */
export interface FakeSessionCredentials extends FakeCredentials {
  readonly sessionToken: string;
  readonly expiration: Date;
}

const HANDLERS: Record<FakeService, FakeServiceHandler> = {
  sts: fakeSts,
  iam: fakeIam,
  kms: fakeKms,
  organizations: fakeOrganizations,
  s3: fakeS3,
  ec2: fakeEc2,
  securityhub: fakeSecurityHub,
  sqs: fakeSqs,
};

export interface FakeAws {
  readonly url: string;
  /** Client options that send every SDK client here (S3 path-style). */
  readonly clientOptions: FakeClientOptions;
  /** Sightline's own credentials: an IAM user of the Sightline account the fake accepts. */
  readonly serviceCredentials: FakeCredentials;
  readonly serviceArn: string;
  /**
   * Changes the account as its administrators would, each with the CloudTrail event AWS would
   * emit. From the first change on the fake serves its own copy of the model.
   */
  readonly control: FakeControl;
  /** The account as the fake serves it now. */
  readonly model: FakeAccountModel;
  /** Every call so far, in arrival order. */
  readonly calls: readonly RecordedCall[];
  /** Objects written, by `<bucket>/<key>`. */
  readonly objects: ReadonlyMap<string, StoredObject>;
  /** Multipart uploads started and neither completed nor aborted, by upload ID. */
  readonly uploads: ReadonlyMap<string, { readonly bucket: string; readonly key: string }>;
  /** Findings imported into Security Hub (any region, any caller), in arrival order. */
  readonly findings: readonly ImportedFinding[];
  /** Makes matching calls fail (or alters them: `corrupt-body`, `no-checksum`) `times` times. */
  inject(fault: Fault): void;
  /** Forgets every fault still pending. */
  clearFaults(): void;
  /**
   * Creates a queue of the Sightline account (idempotent); its URL. Each message's body is an
   * EventBridge envelope when `control.setEventDestination({ queueUrl })` sends events there.
   */
  createQueue(name: string, options?: { readonly visibilityTimeout?: number }): string;
  /** Sends a message to a queue this fake serves, as EventBridge's SQS target would. */
  sendToQueue(queueUrl: string, body: string): void;
  /** Lets the role be assumed with another external ID too (each tenant has its own). */
  trustExternalId(roleArn: string, externalId: string): void;
  /** Writes an object as the bucket's owner would (not recorded as a call), e.g. a proof token. */
  putObjectAsOwner(bucket: string, key: string, body: string | Buffer): void;
  /**
   * Deletes a bucket (every object in it) and registers its name again in another account, as
   * anyone may once a bucket name is free.
   */
  recreateBucket(bucket: string, ownerAccountId: string): void;
  /** Credentials of a session of the account, as a caller's own credential would be. */
  issueSession(session: { readonly arn: string; readonly expiresAt: Date }): FakeSessionCredentials;
  close(): Promise<void>;
}

/** Starts STS, IAM, KMS, Organizations, S3, EC2, Security Hub and SQS on 127.0.0.1 at a random port. */
export async function startFakeAws(
  model: FakeAccountModel,
  options: {
    readonly sightlineAccountId?: string;
    /**
     * Whether written objects keep their bytes (default true). `false` keeps only the size and
     * SHA-256 of each (benchmarks writing gigabytes); a function chooses per object.
     */
    readonly storeBodies?: StoreBodies;
  } = {},
): Promise<FakeAws> {
  const sightlineAccountId = options.sightlineAccountId ?? "999999999999";
  const service: FakeSession = {
    accessKeyId: randomId("AKIA", 16),
    secretAccessKey: randomId("", 40),
    arn: `arn:aws:iam::${sightlineAccountId}:user/sightline`,
    accountId: sightlineAccountId,
  };
  const state: FakeState = {
    model,
    sessions: new Map([[service.accessKeyId, service]]),
    objects: new Map(),
    uploads: new Map(),
    storeBodies: options.storeBodies ?? true,
    faults: [],
    calls: [],
    findings: [],
    trustedExternalIds: new Map(),
    kmsSecret: randomBytes(32),
    credentialReportCalls: 0,
    queues: new Map(),
  };
  const server = createServer((incoming, outgoing) => {
    serve(state, incoming, outgoing).catch((error: unknown) => {
      outgoing.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const endpoints = Object.fromEntries(Object.keys(HANDLERS).map((name) => [name, url])) as Record<
    FakeService,
    string
  >;
  return {
    url,
    clientOptions: { endpoints, s3ForcePathStyle: true },
    serviceCredentials: {
      accessKeyId: service.accessKeyId,
      secretAccessKey: service.secretAccessKey,
    },
    serviceArn: service.arn,
    control: createFakeControl(state),
    get model() {
      return state.model;
    },
    calls: state.calls,
    objects: state.objects,
    uploads: state.uploads,
    findings: state.findings,
    inject: (fault) => addFault(state, fault),
    clearFaults: () => {
      state.faults.length = 0;
    },
    createQueue(name, queueOptions = {}) {
      createQueue(state.queues, sightlineAccountId, name, queueOptions.visibilityTimeout);
      return `${url}/${sightlineAccountId}/${name}`;
    },
    sendToQueue(queueUrl, body) {
      sendMessage(queueOfUrl(state.queues, queueUrl), body);
    },
    trustExternalId(roleArn, externalId) {
      const ids = state.trustedExternalIds.get(roleArn) ?? new Set<string>();
      state.trustedExternalIds.set(roleArn, ids.add(externalId));
    },
    putObjectAsOwner(bucket, key, body) {
      findBucket(state, bucket);
      const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, "utf8");
      const object = { bucket, key, headers: {}, accessKeyId: "owner", multipart: false };
      storeObject(state, object, { body: bytes });
    },
    recreateBucket(bucket, ownerAccountId) {
      findBucket(state, bucket);
      for (const path of [...state.objects.keys()])
        if (path.startsWith(`${bucket}/`)) state.objects.delete(path);
      const model = state.model as { buckets?: FakeBucket[] };
      model.buckets = (model.buckets ?? []).map((found) =>
        found.name === bucket ? { ...found, ownerAccountId } : found,
      );
    },
    issueSession({ arn, expiresAt }) {
      const session = {
        accessKeyId: randomId("ASIA", 16),
        secretAccessKey: randomId("", 40),
        sessionToken: randomId("FQoGZXIvYXdzE", 64),
        arn,
        accountId: accountOfArn(arn) ?? model.accountId,
        expiresAt,
      };
      state.sessions.set(session.accessKeyId, session);
      return { ...session, expiration: expiresAt };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function serve(state: FakeState, incoming: IncomingMessage, outgoing: ServerResponse) {
  const requestId = randomUUID();
  const request = await readFakeRequest(incoming);
  if (!request) {
    outgoing.writeHead(403, { "content-type": "text/plain" });
    outgoing.end(
      "The fake answers only SigV4-signed requests to sts, iam, kms, organizations, s3, ec2, securityhub, sqs",
    );
    return;
  }
  const handler = HANDLERS[request.service];
  const { operation, resource, key } = handler.identify(request);
  const call: RecordedCall = {
    service: request.service,
    operation,
    region: request.region,
    accessKeyId: request.accessKeyId,
    ...(resource === undefined ? {} : { resource }),
    ...(key === undefined ? {} : { key }),
    headers: visibleHeaders(request.headers),
    status: 0,
  };
  state.calls.push(call);
  let response: FakeResponse;
  try {
    const session = authenticate(state, request);
    const taken = takeMatchingFault(state, request.service, operation, resource);
    if (taken && isDelay(taken.kind) && !(await answered(outgoing, taken.delayMs ?? 60_000))) {
      // The caller hung up before the (slow) call was done: nothing of it is kept.
      call.status = CLIENT_CLOSED;
      return;
    }
    const fault = taken && !isDelay(taken.kind) ? taken.kind : undefined;
    if (fault && !isAlteration(fault)) throw serviceError(request.service, fault);
    const alteration = fault ? { alteration: fault } : {};
    response = await handler.handle({
      request,
      operation,
      session,
      state,
      requestId,
      ...alteration,
    });
  } catch (error) {
    const failure =
      error instanceof FakeAwsError ? error : new FakeAwsError("InternalError", String(error), 500);
    response = errorResponse(request.service, failure, requestId, request.method);
  }
  call.status = response.status;
  const length = response.headers["content-length"] ?? String(Buffer.byteLength(response.body));
  outgoing.writeHead(response.status, {
    ...response.headers,
    "content-length": length,
    "x-amzn-requestid": requestId,
    "x-amz-request-id": requestId,
  });
  outgoing.end(request.method === "HEAD" ? undefined : response.body);
}

/** The status the fake records for a call whose caller hung up before its answer (nginx's). */
const CLIENT_CLOSED = 499;

/** Waits `ms`; false if the caller hung up meanwhile. */
function answered(outgoing: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const closed = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      outgoing.off("close", closed);
      resolve(true);
    }, ms);
    outgoing.once("close", closed);
  });
}

/** The session of the signing key; unknown keys, wrong tokens and expired sessions fail. */
function authenticate(state: FakeState, request: FakeRequest): FakeSession {
  const session = state.sessions.get(request.accessKeyId);
  if (!session || session.sessionToken !== request.headers["x-amz-security-token"]) {
    throw serviceError(request.service, "invalid-credentials");
  }
  if (session.expiresAt && session.expiresAt.getTime() <= Date.now()) {
    throw serviceError(request.service, "expired-token");
  }
  return session;
}
