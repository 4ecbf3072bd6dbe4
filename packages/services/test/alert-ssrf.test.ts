import { describe, expect, it } from "vitest";
import { parseAllowedHost, type Resolver } from "../src/alerts/alert-settings.ts";
import { internalAddressReason, internalHostReason } from "../src/alerts/internal-addresses.ts";
import { signAlert, verifyAlertSignature } from "../src/alerts/webhook-signature.ts";
import { checkWebhookUrl, RefusedWebhookUrl } from "../src/alerts/webhook-url.ts";

/** A resolver of a few names, as a test's DNS. */
const fakeDns =
  (answers: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = answers[host];
    if (!found) throw Object.assign(new Error(`no such host ${host}`), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

const refusal = async (url: string, settings = {}) => {
  try {
    await checkWebhookUrl(url, settings);
  } catch (error) {
    expect(error).toBeInstanceOf(RefusedWebhookUrl);
    return (error as Error).message;
  }
  return undefined;
};

describe("internal addresses", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.4.4", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["224.0.0.251", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "unique local"],
    ["fd12:3456::1", "unique local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped IPv6 address of 127.0.0.1, a loopback"],
    ["::ffff:a9fe:a9fe", "IPv4-mapped IPv6 address of 169.254.169.254"],
    ["64:ff9b::a00:1", "NAT64 IPv6 address of 10.0.0.1"],
    ["2002:7f00:1::", "6to4 IPv6 address of 127.0.0.1"],
  ])("refuses %s (%s)", (address, what) => {
    expect(internalAddressReason(address)).toContain(what);
  });

  it.each([
    "93.184.215.14",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700::1111",
    "::ffff:8.8.8.8",
  ])("accepts the public %s", (address) => {
    expect(internalAddressReason(address)).toBeUndefined();
  });

  it("refuses local and metadata host names, and single-label names", () => {
    for (const host of [
      "localhost",
      "LOCALHOST.",
      "metadata.google.internal",
      "metadata",
      "app.localhost",
      "db.corp.internal",
    ])
      expect(internalHostReason(host)).toBeDefined();
    expect(internalHostReason("hooks.example.com")).toBeUndefined();
  });
});

describe("checkWebhookUrl", () => {
  const resolve = fakeDns({
    "hooks.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
    "evil.example": ["10.0.0.1"],
    "mixed.example": ["93.184.215.14", "127.0.0.1"],
    "mapped.example": ["::ffff:169.254.169.254"],
  });

  it("accepts an https URL whose host resolves to public addresses only", async () => {
    expect(await refusal("https://hooks.example.com/alerts?team=sec", { resolve })).toBeUndefined();
  });

  it.each([
    ["https://127.0.0.1/", "127.0.0.1 is a loopback address"],
    ["https://10.0.0.1/", "10.0.0.1 is a private address"],
    ["https://169.254.169.254/latest/meta-data", "169.254.169.254 is a link-local address"],
    ["https://[::1]/", "::1 is a loopback address"],
    ["https://[::ffff:7f00:1]/", "IPv4-mapped IPv6 address of 127.0.0.1"],
    ["https://2130706433/", "127.0.0.1 is a loopback address"],
    ["https://0x7f.1/", "127.0.0.1 is a loopback address"],
    ["https://metadata.google.internal/computeMetadata/v1/", "metadata host name"],
    ["https://evil.example/", "evil.example resolves to 10.0.0.1, a private address"],
    ["https://mixed.example/", "mixed.example resolves to 127.0.0.1, a loopback address"],
    ["https://mapped.example/", "IPv4-mapped IPv6 address of 169.254.169.254"],
    ["https://nowhere.example/", "does not resolve (ENOTFOUND)"],
    ["http://hooks.example.com/", "must be an https:// URL"],
  ])("refuses %s", async (url, rule) => {
    const message = await refusal(url, { resolve });
    expect(message).toContain(rule);
  });

  it("lets the operator allow a named host (and port), even over http", async () => {
    const allowedHosts = [parseAllowedHost("127.0.0.1:8443"), parseAllowedHost("evil.example")].map(
      (entry) => entry as NonNullable<typeof entry>,
    );
    const settings = { resolve, allowedHosts };
    expect(await refusal("https://127.0.0.1:8443/hook", settings)).toBeUndefined();
    expect(await refusal("http://evil.example/hook", settings)).toBeUndefined();
    expect(await refusal("https://127.0.0.1:9443/hook", settings)).toContain("loopback");
  });

  it("parses the allowlist's entries, and refuses what is not a host", () => {
    expect(parseAllowedHost("Hooks.Corp.Example:8443")).toEqual({
      host: "hooks.corp.example",
      port: 8443,
    });
    expect(parseAllowedHost("[::1]:443")).toEqual({ host: "::1", port: 443 });
    expect(parseAllowedHost("::1")).toEqual({ host: "::1" });
    expect(parseAllowedHost("10.1.2.3")).toEqual({ host: "10.1.2.3" });
    for (const bad of ["https://x.example", "x.example:99999", "a b", ""])
      expect(parseAllowedHost(bad)).toBeUndefined();
  });
});

describe("webhook signatures", () => {
  const secret = "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3I";
  const body = JSON.stringify({ alertId: "a", changes: [] });
  const now = new Date("2026-01-31T07:00:00Z");

  it("verify under the secret, within 5 minutes, for the exact body", () => {
    const headers = signAlert(secret, "a", body, now);
    expect(headers["sightline-signature"]).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(headers["sightline-timestamp"]).toBe(String(now.getTime() / 1000));
    expect(verifyAlertSignature(secret, headers, body, now)).toBe(true);
    expect(
      verifyAlertSignature(
        secret,
        new Headers(headers),
        Buffer.from(body),
        new Date(now.getTime() + 299_000),
      ),
    ).toBe(true);
    expect(verifyAlertSignature(secret, headers, body, new Date(now.getTime() + 301_000))).toBe(
      false,
    );
    expect(verifyAlertSignature("another-secret", headers, body, now)).toBe(false);
    expect(verifyAlertSignature(secret, headers, `${body} `, now)).toBe(false);
    const replayed = { ...headers, "sightline-timestamp": String(now.getTime() / 1000 + 1) };
    expect(verifyAlertSignature(secret, replayed, body, now)).toBe(false);
    expect(
      verifyAlertSignature(secret, { ...headers, "sightline-signature": "v1=zz" }, body, now),
    ).toBe(false);
  });
});
