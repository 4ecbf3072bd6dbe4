import { isIP } from "node:net";

/** An address range: its first bytes, prefix length in bits, and what it is, in words. */
type Range = readonly [bytes: readonly number[], bits: number, what: string];

const PRIVATE = "a private address";
const V4_RANGES: readonly Range[] = [
  [[0, 0, 0, 0], 8, "an unspecified ('this network') address"],
  [[10, 0, 0, 0], 8, PRIVATE],
  [[100, 64, 0, 0], 10, "a carrier-grade NAT (shared) address"],
  [[127, 0, 0, 0], 8, "a loopback address"],
  [[169, 254, 0, 0], 16, "a link-local address (where cloud metadata services answer)"],
  [[172, 16, 0, 0], 12, PRIVATE],
  [[192, 0, 0, 0], 24, "an IETF protocol address"],
  [[192, 168, 0, 0], 16, PRIVATE],
  [[198, 18, 0, 0], 15, "a benchmarking address"],
  [[224, 0, 0, 0], 4, "a multicast address"],
  [[240, 0, 0, 0], 4, "a reserved or broadcast address"],
];

const zeros = (n: number) => Array.from({ length: n }, () => 0);
const V6_RANGES: readonly Range[] = [
  [zeros(16), 128, "the unspecified address"],
  [[...zeros(15), 1], 128, "a loopback address"],
  [zeros(12), 96, "an IPv4-compatible address"],
  [[0x01, 0x00, ...zeros(6)], 64, "a discard address"],
  [[0xfc], 7, "a private (unique local) address"],
  [[0xfe, 0x80], 10, "a link-local address"],
  [[0xfe, 0xc0], 10, "a site-local address"],
  [[0xff], 8, "a multicast address"],
];

/** IPv6 prefixes that carry an IPv4 address in their last 4 bytes (or, for 6to4, bytes 2–5). */
const EMBEDDING: readonly (readonly [bytes: readonly number[], bits: number, what: string])[] = [
  [[...zeros(10), 0xff, 0xff], 96, "an IPv4-mapped IPv6 address"],
  [[...zeros(8), 0xff, 0xff, 0, 0], 96, "an IPv4-translated IPv6 address"],
  [[0x00, 0x64, 0xff, 0x9b, ...zeros(8)], 96, "a NAT64 IPv6 address"],
];

function inRange(address: readonly number[], [base, bits]: Range): boolean {
  for (let bit = 0; bit < bits; bit++) {
    const byte = Math.floor(bit / 8);
    const mask = 0x80 >> (bit % 8);
    if (((address[byte] ?? 0) & mask) !== ((base[byte] ?? 0) & mask)) return false;
  }
  return true;
}

function ipv4Bytes(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255))
    return undefined;
  return parts.map(Number);
}

/** The 16 bytes of an IPv6 address (a zone `%eth0` is ignored; a dotted tail is read). */
export function ipv6Bytes(text: string): number[] | undefined {
  let body = text.split("%")[0] ?? "";
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(body)?.[1];
  let tail: number[] = [];
  if (dotted) {
    const v4 = ipv4Bytes(dotted);
    if (!v4) return undefined;
    tail = v4;
    body = body.slice(0, -dotted.length);
    if (body.endsWith(":") && !body.endsWith("::")) body = body.slice(0, -1);
  }
  const halves = body.split("::");
  if (halves.length > 2) return undefined;
  const words = (part: string | undefined) => (part ? part.split(":") : []);
  const head = words(halves[0]);
  const rest = halves.length === 2 ? words(halves[1]) : [];
  const missing = 8 - tail.length / 2 - head.length - rest.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return undefined;
  const all = [...head, ...Array.from({ length: missing }, () => "0"), ...rest];
  const bytes: number[] = [];
  for (const word of all) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(word)) return undefined;
    const value = Number.parseInt(word, 16);
    bytes.push(value >> 8, value & 0xff);
  }
  return [...bytes, ...tail];
}

/**
 * Why Sightline must not connect to this IP address, or undefined for a public one: loopback,
 * private, link-local (cloud metadata), unspecified, CGNAT, multicast, broadcast and reserved
 * ranges, and IPv6 forms that embed such an IPv4 address.
 */
export function internalAddressReason(address: string): string | undefined {
  const family = isIP(address.split("%")[0] ?? "");
  if (family === 4) {
    const bytes = ipv4Bytes(address);
    return bytes ? V4_RANGES.find((range) => inRange(bytes, range))?.[2] : "not an IP address";
  }
  if (family !== 6) return "not an IP address";
  const bytes = ipv6Bytes(address);
  if (!bytes) return "not an IP address";
  for (const [base, bits, what] of EMBEDDING) {
    if (!inRange(bytes, [base, bits, what])) continue;
    const v4 = bytes.slice(12).join(".");
    const reason = internalAddressReason(v4);
    return reason ? `${what} of ${v4}, ${reason}` : undefined;
  }
  if (bytes[0] === 0x20 && bytes[1] === 0x02) {
    const v4 = bytes.slice(2, 6).join(".");
    const reason = internalAddressReason(v4);
    if (reason) return `a 6to4 IPv6 address of ${v4}, ${reason}`;
  }
  return V6_RANGES.find((range) => inRange(bytes, range))?.[2];
}

/** Names that reach a machine's own services or a cloud's metadata service. */
const INTERNAL_NAMES = new Set([
  "localhost",
  "metadata",
  "metadata.goog",
  "metadata.google.internal",
  "instance-data",
  "instance-data.ec2.internal",
]);
const INTERNAL_SUFFIXES = [".localhost", ".internal", ".local", ".home.arpa"];

/** A host name as compared: lower case, without a trailing dot or IPv6 brackets. */
export function normalizeHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
}

/**
 * Why this host (a name or an IP address) must not be reached, judged on its text alone;
 * undefined when it may be (a name must then also resolve to public addresses only).
 */
export function internalHostReason(host: string): string | undefined {
  const name = normalizeHost(host);
  if (isIP(name)) return internalAddressReason(name);
  if (INTERNAL_NAMES.has(name) || INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix)))
    return "a local or cloud metadata host name";
  if (!name.includes("."))
    return "a single-label name, which resolves inside a network: use a fully qualified public host name";
  return undefined;
}
