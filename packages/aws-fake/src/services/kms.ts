import { randomBytes } from "node:crypto";
import { FakeAwsError } from "../fake-errors.ts";
import type { FakeCall, FakeServiceHandler } from "../fake-state.ts";
import { jsonResponse } from "../protocols/responses.ts";
import { jsonBody, jsonOperation, jsonPage } from "./json-params.ts";
import {
  defaultKeyPolicy,
  findKey,
  keyArn,
  keyRegion,
  unwrapDataKey,
  wrapDataKey,
} from "./kms-keys.ts";

/** KMS over AWS JSON 1.1, per region (the region of the request's signature). */
export const fakeKms: FakeServiceHandler = {
  identify(request) {
    const keyId = jsonBody(request).KeyId;
    return {
      operation: jsonOperation(request),
      ...(typeof keyId === "string" ? { resource: keyId } : {}),
    };
  },
  handle(call) {
    return jsonResponse(answer(call));
  },
};

function answer(call: FakeCall): object {
  const { state, request } = call;
  const body = jsonBody(request);
  const region = request.region;
  const keys = (state.model.keys ?? []).filter((key) => keyRegion(key) === region);
  switch (call.operation) {
    case "ListKeys": {
      const { page, next } = jsonPage(keys, body.Marker, body.Limit);
      const listed = page.map((key) => ({ KeyId: key.keyId, KeyArn: keyArn(state, key) }));
      return { Keys: listed, Truncated: next !== undefined, ...(next ? { NextMarker: next } : {}) };
    }
    case "ListAliases": {
      // With a KeyId, KMS lists that key's aliases alone.
      const of = body.KeyId === undefined ? keys : [findKey(state, region, body.KeyId)];
      const aliases = of.flatMap((key) =>
        (key.aliases ?? []).map((alias) => ({
          AliasName: alias,
          AliasArn: `${keyArn(state, key).replace(/key\/.*$/, "")}${alias}`,
          TargetKeyId: key.keyId,
        })),
      );
      const { page, next } = jsonPage(aliases, body.Marker, body.Limit);
      return {
        Aliases: page,
        Truncated: next !== undefined,
        ...(next ? { NextMarker: next } : {}),
      };
    }
    case "DescribeKey": {
      const key = findKey(state, region, body.KeyId);
      const keyState = key.state ?? "Enabled";
      return {
        KeyMetadata: {
          AWSAccountId: state.model.accountId,
          KeyId: key.keyId,
          Arn: keyArn(state, key),
          CreationDate: 1_704_067_200,
          Enabled: keyState === "Enabled",
          KeyUsage: "ENCRYPT_DECRYPT",
          KeyState: keyState,
          KeyManager: key.manager ?? "CUSTOMER",
          KeySpec: "SYMMETRIC_DEFAULT",
          Origin: "AWS_KMS",
        },
      };
    }
    case "GetKeyPolicy": {
      const key = findKey(state, region, body.KeyId);
      const policy = key.policy ?? defaultKeyPolicy(state);
      return {
        Policy: typeof policy === "string" ? policy : JSON.stringify(policy),
        PolicyName: "default",
      };
    }
    case "ListResourceTags": {
      const key = findKey(state, region, body.KeyId);
      const tags = Object.entries(key.tags ?? {}).map(([TagKey, TagValue]) => ({
        TagKey,
        TagValue,
      }));
      return { Tags: tags, Truncated: false };
    }
    case "GenerateDataKey": {
      const key = findKey(state, region, body.KeyId);
      if ((key.state ?? "Enabled") !== "Enabled") {
        throw new FakeAwsError("DisabledException", `${keyArn(state, key)} is disabled.`, 400);
      }
      const plaintext = randomBytes(Number(body.NumberOfBytes ?? 32));
      const blob = wrapDataKey(state, keyArn(state, key), body.EncryptionContext, plaintext);
      return {
        KeyId: keyArn(state, key),
        Plaintext: plaintext.toString("base64"),
        CiphertextBlob: blob.toString("base64"),
      };
    }
    case "Decrypt": {
      const blob = Buffer.from(String(body.CiphertextBlob ?? ""), "base64");
      const { arn, plaintext } = unwrapDataKey(state, blob, body.EncryptionContext);
      if (body.KeyId !== undefined && keyArn(state, findKey(state, region, body.KeyId)) !== arn) {
        throw new FakeAwsError(
          "IncorrectKeyException",
          "The key ID in the request does not identify the key of the ciphertext.",
          400,
        );
      }
      return {
        KeyId: arn,
        Plaintext: plaintext.toString("base64"),
        EncryptionAlgorithm: "SYMMETRIC_DEFAULT",
      };
    }
    default:
      throw new FakeAwsError(
        "UnknownOperationException",
        `Unsupported KMS operation ${call.operation}`,
        400,
      );
  }
}
