import { FakeAwsError } from "../fake-errors.ts";
import type { FakeRequest } from "../fake-request.ts";
import type { FakeCall, FakeServiceHandler } from "../fake-state.ts";
import { type FakeResponse, s3XmlResponse } from "../protocols/responses.ts";
import { checkBucketPolicy } from "./s3-bucket-policy.ts";
import {
  abortMultipartUpload,
  completeMultipartUpload,
  createMultipartUpload,
  listMultipartUploads,
  uploadPart,
} from "./s3-multipart.ts";
import { copyObject, deleteObject, getObject, putObject } from "./s3-objects.ts";
import { checkExpectedOwners, findBucket } from "./s3-store.ts";

/** S3 REST-XML with path-style addressing: `/<bucket>/<key>?<subresource>`. */
export const fakeS3: FakeServiceHandler = {
  identify(request) {
    const { bucket, key } = locate(request);
    return {
      operation: operationOf(request),
      ...(bucket ? { resource: bucket } : {}),
      ...(key ? { key } : {}),
    };
  },
  handle(call) {
    return answer(call);
  },
};

function locate(request: FakeRequest): { bucket: string; key: string } {
  const [, bucket = "", ...rest] = request.url.pathname.split("/");
  return { bucket: decodeURIComponent(bucket), key: rest.map(decodeURIComponent).join("/") };
}

function operationOf(request: FakeRequest): string {
  const { bucket, key } = locate(request);
  const query = request.url.searchParams;
  const method = request.method;
  if (!bucket) return "ListBuckets";
  if (!key) {
    if (query.has("location")) return "GetBucketLocation";
    if (query.has("policy")) return "GetBucketPolicy";
    if (query.has("tagging")) return "GetBucketTagging";
    if (query.has("uploads") && method === "GET") return "ListMultipartUploads";
    return `Unsupported${method}Bucket`;
  }
  if (method === "PUT") {
    if (query.has("uploadId")) return "UploadPart";
    return request.headers["x-amz-copy-source"] ? "CopyObject" : "PutObject";
  }
  if (method === "POST")
    return query.has("uploads") ? "CreateMultipartUpload" : "CompleteMultipartUpload";
  if (method === "DELETE") return query.has("uploadId") ? "AbortMultipartUpload" : "DeleteObject";
  return method === "HEAD" ? "HeadObject" : "GetObject";
}

function answer(call: FakeCall): FakeResponse {
  const { request, operation, state } = call;
  const { bucket, key } = locate(request);
  if (bucket) checkExpectedOwners(state, request, bucket);
  if (bucket) checkBucketPolicy(state, call.session, operation, bucket, key);
  switch (operation) {
    case "ListBuckets": {
      const buckets = (state.model.buckets ?? []).map((b) => ({
        Name: b.name,
        CreationDate: "2024-01-01T00:00:00.000Z",
      }));
      return s3XmlResponse("ListAllMyBucketsResult", {
        Owner: { ID: "fake-canonical-user", DisplayName: "owner" },
        Buckets: { Bucket: buckets },
      });
    }
    case "GetBucketLocation": {
      const region = findBucket(state, bucket).region ?? "us-east-1";
      return s3XmlResponse("LocationConstraint", region === "us-east-1" ? "" : region);
    }
    case "GetBucketPolicy": {
      const policy = findBucket(state, bucket).policy;
      if (policy === undefined)
        throw new FakeAwsError("NoSuchBucketPolicy", "The bucket policy does not exist", 404);
      const body = typeof policy === "string" ? policy : JSON.stringify(policy);
      return { status: 200, headers: { "content-type": "application/json" }, body };
    }
    case "GetBucketTagging": {
      const tags = findBucket(state, bucket).tags;
      if (!tags) throw new FakeAwsError("NoSuchTagSet", "The TagSet does not exist", 404);
      const tagList = Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
      return s3XmlResponse("Tagging", { TagSet: { Tag: tagList } });
    }
    case "ListMultipartUploads":
      return listMultipartUploads(call, bucket);
    case "PutObject":
      return putObject(call, bucket, key);
    case "CopyObject":
      return copyObject(call, bucket, key);
    case "DeleteObject":
      return deleteObject(state, bucket, key);
    case "CreateMultipartUpload":
      return createMultipartUpload(call, bucket, key);
    case "UploadPart":
      return uploadPart(call);
    case "CompleteMultipartUpload":
      return completeMultipartUpload(call, bucket, key);
    case "AbortMultipartUpload":
      return abortMultipartUpload(call);
    case "GetObject":
    case "HeadObject":
      return getObject(state, request, bucket, key);
    default:
      throw new FakeAwsError("NotImplemented", `The fake does not implement ${operation}`, 501);
  }
}
