import { createHash, type Hash } from "node:crypto";
import { FakeAwsError } from "../fake-errors.ts";

/**
 * The SHA-256 of a multipart object whose bodies the fake does not keep. Parts may arrive out of
 * order (the SDK sends several at once): each is hashed as soon as every part before it has
 * been, so only the parts waiting for an earlier one are held.
 */
export interface PartDigest {
  readonly hash: Hash;
  /** The number of the part to hash next. */
  next: number;
  size: number;
  readonly waiting: Map<number, { body: Buffer; sha256: string }>;
  /** SHA-256 of each part hashed, so that the same part sent again (a retry) is accepted. */
  readonly hashed: Map<number, string>;
  /** Why the digest cannot describe the object any more. */
  broken?: string;
}

export function createPartDigest(): PartDigest {
  return { hash: createHash("sha256"), next: 1, size: 0, waiting: new Map(), hashed: new Map() };
}

export function addPart(digest: PartDigest, number: number, body: Buffer, sha256: string): void {
  if (number < digest.next) {
    if (digest.hashed.get(number) !== sha256)
      digest.broken = `part ${number} changed after it was hashed`;
    return;
  }
  digest.waiting.set(number, { body, sha256 });
  for (let part = digest.waiting.get(digest.next); part; part = digest.waiting.get(digest.next)) {
    digest.hash.update(part.body);
    digest.size += part.body.length;
    digest.hashed.set(digest.next, part.sha256);
    digest.waiting.delete(digest.next);
    digest.next++;
  }
}

/** Size and SHA-256 of the object made of `numbers`, which must be every part sent, 1 to n. */
export function finishPartDigest(
  digest: PartDigest,
  numbers: readonly number[],
): { size: number; sha256: string } {
  const missing = numbers.find((n) => n >= digest.next && !digest.waiting.has(n));
  if (missing !== undefined)
    throw new FakeAwsError("InvalidPart", `Part ${missing} was not uploaded.`, 400);
  const consecutive = numbers.every((n, i) => n === i + 1);
  if (digest.broken || !consecutive || numbers.length !== digest.next - 1)
    throw new FakeAwsError(
      "InvalidPart",
      `The fake keeps no bodies (storeBodies) and completes only uploads of every part sent, 1 to n${digest.broken ? `: ${digest.broken}` : ""}`,
      400,
    );
  return { size: digest.size, sha256: digest.hash.digest("hex") };
}
