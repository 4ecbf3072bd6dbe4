import { SQSClient } from "@aws-sdk/client-sqs";
import { AppError } from "@sightline/domain";
import { awsCallError, describeFailure } from "../aws-call-error.ts";
import type { AwsCredentials } from "../aws-credentials.ts";
import { classifyAwsError } from "../classify-aws-error.ts";
import { type AwsClientOptions, sdkClientConfig } from "../client-options.ts";

/** Where Sightline's own event queue is, and how to reach it. */
export interface EventQueueInput {
  /** `https://sqs.<region>.amazonaws.com/<account>/<name>` (`SIGHTLINE_EVENTS_SQS_URL`). */
  readonly queueUrl: string;
  /** Sightline's own credentials; default the SDK's standard chain. */
  readonly credentials?: AwsCredentials;
  readonly clientOptions?: AwsClientOptions;
  /** Default: the region of the queue URL's host, else us-east-1. */
  readonly region?: string;
}

/** The region of `sqs.<region>.amazonaws.com` (or `<region>.queue.amazonaws.com`). */
export function regionOfQueueUrl(queueUrl: string): string | undefined {
  const host = /^https?:\/\/([^/]+)\//.exec(queueUrl)?.[1] ?? "";
  return (
    /^sqs\.([a-z0-9-]+)\.amazonaws\.com/.exec(host)?.[1] ??
    /^([a-z0-9-]+)\.queue\.amazonaws\.com/.exec(host)?.[1]
  );
}

export function createQueueClient(input: EventQueueInput): SQSClient {
  const region = input.region ?? regionOfQueueUrl(input.queueUrl) ?? "us-east-1";
  return new SQSClient(sdkClientConfig("sqs", region, input.credentials, input.clientOptions));
}

/**
 * The failure of a call on the event queue. A denial names Sightline's own role (not the
 * auditor role): the queue's policy or the role's must allow it.
 */
export function queueCallError(error: unknown, action: string, queueUrl: string): AppError {
  const failure = classifyAwsError(error);
  if (failure.kind === "denied") {
    return new AppError(
      "ACCESS_DENIED",
      `${action} on ${queueUrl} was denied (${describeFailure(failure)}): allow it to Sightline's own role in the role's or the queue's policy`,
      { cause: error },
    );
  }
  return awsCallError(error, action, queueUrl);
}
