/**
 * The fake's inner pieces, for the tests of `@sightline/aws` that drive them directly (a fault
 * taken by hand, S3 part digests). Not part of what the other tests use: they import the root.
 */
export { takeFault } from "./fake-faults.ts";
export type { FakeState } from "./fake-state.ts";
export { addPart, createPartDigest, finishPartDigest } from "./services/part-digest.ts";
