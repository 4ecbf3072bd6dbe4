import { AccessCapability } from "@sightline/domain";
import { expect, it } from "vitest";
import { CAPABILITIES } from "../src/capabilities.ts";

it("offers exactly the domain's access capabilities, in its order", () => {
  expect([...CAPABILITIES]).toEqual(AccessCapability.options);
});
