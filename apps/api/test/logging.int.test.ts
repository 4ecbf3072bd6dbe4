import { createLogger } from "@sightline/logging";
import { expect, it } from "vitest";
import { ownCredential } from "./analysis-fixtures.ts";
import { ADMIN_KEY, awsAccount, createHarness } from "./harness.ts";

const lines: string[] = [];
const h = await createHarness({
  logger: createLogger({ level: "debug", write: (line) => lines.push(line) }),
});

const call = (method: string, path: string, key: string, body?: unknown) =>
  h.call(method, path, { key, body });

it("logs one JSON line per request with its request id, and never a key or an external ID", async () => {
  const from = lines.length;
  const partnerId = "P918273";
  const created = await call("POST", "/admin/api-keys", ADMIN_KEY, { partnerId });
  const key = created.json.key as string;
  await call("PUT", `/partner/${partnerId}`, key, { partnerId });
  await call("PUT", `/partner/${partnerId}/customer/log-tenant`, key, {
    partnerId,
    partnerCustomerId: "log-tenant",
    subscriptionPlanName: "Starter",
    deliveryDestinations: [{ methodName: "DeliverToPartner" }],
  });
  const secretExternalId = "very-secret-external-id-4711";
  const account = {
    ...awsAccount("123456789012", partnerId, "log-tenant"),
    auditorAuthConfig: {
      roleArn: "arn:aws:iam::123456789012:role/A",
      externalId: secretExternalId,
    },
  };
  expect(
    (
      await call(
        "PUT",
        `/partner/${partnerId}/customer/log-tenant/account/123456789012`,
        key,
        account,
      )
    ).status,
  ).toBe(200);
  await call("GET", `/partner/${partnerId}`, `${key}x`);

  const records = lines.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);
  const requests = records.filter((r) => r.msg === "request");
  expect(requests).toHaveLength(5);
  for (const r of requests) expect(r.requestId).toEqual(expect.any(String));
  expect(requests.map((r) => r.status)).toEqual([201, 200, 200, 200, 401]);
  const all = lines.join("\n");
  for (const secret of [ADMIN_KEY, key, secretExternalId]) expect(all).not.toContain(secret);
});

it("never logs nor returns an own credential's secret key or session token", async () => {
  const from = lines.length;
  const pc = await h.newPartnerCustomer(await h.newPartner());
  const path = `/partner/${pc.partnerId}/customer/${pc.partnerCustomerId}/account/123456789012/analysis`;
  const credential = ownCredential("123456789012");
  const body = {
    partnerId: pc.partnerId,
    partnerCustomerId: pc.partnerCustomerId,
    accountId: "123456789012",
    auditorAuthMethod: "credential",
    auditorAuthCredential: credential,
  };
  const accepted = await call("POST", path, pc.key, body);
  expect(accepted.status).toBe(202);
  // A refused credential (the session of another account) is not echoed either.
  const wrongArn = { ...credential.details, arn: credential.details.arn.replace("1234", "9999") };
  const refused = await call("POST", path, pc.key, {
    ...body,
    auditorAuthCredential: { ...credential, details: wrongArn },
  });
  expect(refused.status).toBe(400);
  const conflict = await call("POST", path, pc.key, body);
  expect(conflict.status).toBe(409);

  const logged = lines.slice(from).join("\n");
  expect(logged).toContain(accepted.json.executionId as string);
  for (const secret of [credential.details.secretKey, credential.details.sessionToken]) {
    expect(logged).not.toContain(secret);
    for (const res of [accepted, refused, conflict]) expect(res.text).not.toContain(secret);
  }
});
