import { createPublicKey, constants as cryptoConstants, randomBytes, verify } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type FakeAzureContext, json, readBody } from "./fake-http.ts";
import type { FakeApp } from "./fake-model.ts";

const b64url = (text: string) => Buffer.from(text, "base64url");

/** A client assertion (RFC 7523) signed by the app's certificate key, for this client. */
function validAssertion(assertion: string, app: FakeApp): boolean {
  if (!app.certificatePem) return false;
  const [header, payload, signature] = assertion.split(".");
  if (!header || !payload || !signature) return false;
  try {
    const h = JSON.parse(b64url(header).toString("utf8")) as { alg?: string };
    const p = JSON.parse(b64url(payload).toString("utf8")) as {
      iss?: string;
      sub?: string;
      exp?: number;
    };
    if (p.iss !== app.clientId || p.sub !== app.clientId) return false;
    if (typeof p.exp === "number" && p.exp * 1000 < Date.now()) return false;
    const key = createPublicKey(app.certificatePem);
    const data = Buffer.from(`${header}.${payload}`);
    if (h.alg === "RS256") return verify("sha256", data, key, b64url(signature));
    if (h.alg === "PS256")
      return verify(
        "sha256",
        data,
        { key, padding: cryptoConstants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
        b64url(signature),
      );
    return false;
  } catch {
    return false;
  }
}

/**
 * Microsoft Entra ID: instance discovery, OpenID configuration, and the client-credentials grant
 * with a secret or a certificate assertion. Answers and returns the status.
 */
export async function token(
  ctx: FakeAzureContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<number> {
  const { model, tokens, origin } = ctx;
  const segments = url.pathname.split("/").filter(Boolean);
  if (url.pathname.endsWith("/discovery/instance")) {
    const host = new URL(origin).host;
    json(res, 200, {
      tenant_discovery_endpoint: `${origin}/${model.tenantId}/v2.0/.well-known/openid-configuration`,
      "api-version": "1.1",
      metadata: [{ preferred_network: host, preferred_cache: host, aliases: [host] }],
    });
    return 200;
  }
  const tenant = segments[0] ?? "";
  if (tenant !== model.tenantId && tenant !== "organizations") {
    json(res, 400, {
      error: "invalid_tenant",
      error_description: `AADSTS90002: Tenant '${tenant}' not found.`,
    });
    return 400;
  }
  if (url.pathname.endsWith("/.well-known/openid-configuration")) {
    const base = `${origin}/${model.tenantId}`;
    json(res, 200, {
      token_endpoint: `${base}/oauth2/v2.0/token`,
      authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
      end_session_endpoint: `${base}/oauth2/v2.0/logout`,
      device_authorization_endpoint: `${base}/oauth2/v2.0/devicecode`,
      jwks_uri: `${origin}/${model.tenantId}/discovery/v2.0/keys`,
      issuer: `${base}/v2.0`,
      response_types_supported: ["code", "id_token", "code id_token", "id_token token"],
      token_endpoint_auth_methods_supported: ["client_secret_post", "private_key_jwt"],
      tenant_region_scope: "NA",
    });
    return 200;
  }
  if (req.method === "POST" && url.pathname.endsWith("/oauth2/v2.0/token")) {
    const form = new URLSearchParams(await readBody(req));
    const clientId = form.get("client_id") ?? "";
    const app = model.apps.find((a) => a.clientId === clientId);
    if (form.get("grant_type") !== "client_credentials") {
      json(res, 400, { error: "unsupported_grant_type", error_description: "AADSTS70003" });
      return 400;
    }
    if (!app) {
      json(res, 400, {
        error: "unauthorized_client",
        error_description: `AADSTS700016: Application with identifier '${clientId}' was not found in the directory '${model.tenantId}'.`,
      });
      return 400;
    }
    const secret = form.get("client_secret");
    const assertion = form.get("client_assertion");
    const valid =
      (secret !== null && app.secret !== undefined && secret === app.secret) ||
      (assertion !== null && validAssertion(assertion, app));
    if (!valid) {
      json(res, 401, {
        error: "invalid_client",
        error_description: `AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value for app '${clientId}'.`,
      });
      return 401;
    }
    const scope =
      form
        .get("scope")
        ?.split(" ")
        .find((s) => s.endsWith("/.default")) ?? "";
    const accessToken = randomBytes(24).toString("base64url");
    tokens.set(accessToken, { clientId, tenantId: model.tenantId, scope });
    json(res, 200, {
      token_type: "Bearer",
      expires_in: 3599,
      ext_expires_in: 3599,
      access_token: accessToken,
    });
    return 200;
  }
  json(res, 404, { error: "not_found" });
  return 404;
}
