import { type AwsActionInfo, listAwsActions } from "@sightline/capabilities";
import { describe, expect, it } from "vitest";
import { setBit } from "../src/analyze/bits.ts";
import { ActionIndex } from "../src/index.ts";
import { matchGlob } from "../src/policy/glob.ts";

// The index folds the catalogue's names once and matches each pattern against the folded names:
// it must cover exactly the actions that matching each name case-insensitively covers.

/** The actions an Action pattern covers, matched name by name (`matchGlob` folds both sides). */
function reference(index: ActionIndex, pattern: string): Uint32Array {
  const key = pattern.toLowerCase();
  const colon = key.indexOf(":");
  const prefixPattern = colon < 0 ? key : key.slice(0, colon);
  const bits = new Uint32Array(index.words);
  index.actions.forEach((info, i) => {
    if (
      key === "*" ||
      (matchGlob(prefixPattern, info.prefix, true) && matchGlob(key, info.action, true))
    )
      setBit(bits, i);
  });
  return bits;
}

const count = (bits: Uint32Array) =>
  bits.reduce((n, word) => n + word.toString(2).replaceAll("0", "").length, 0);

const info = (action: string): AwsActionInfo => {
  const prefix = action.slice(0, action.indexOf(":"));
  return {
    action,
    prefix,
    service: prefix,
    accessLevel: "Read",
    capabilities: ["read-data"],
    resourceTypes: [],
  };
};

describe("ActionIndex.expandPattern", () => {
  it("covers what matching each catalogue name ignoring case covers", () => {
    const index = new ActionIndex(listAwsActions());
    const patterns = [
      "s3:GetObject",
      "S3:GETOBJECT",
      "s3:Get*",
      "*:List*",
      "iam:?etRole",
      "ec2:*Instance?",
      "Kms:*",
      "*",
      "sts:Assume*",
      "*:*Policy*",
      "s?s:*",
    ];
    for (const pattern of patterns) {
      const expanded = index.expandPattern(pattern);
      expect({ pattern, bits: [...expanded] }).toEqual({
        pattern,
        bits: [...reference(index, pattern)],
      });
      expect(count(expanded), pattern).toBeGreaterThan(0);
    }
  });

  it("folds names outside ASCII as the matcher does (final sigma, sharp s)", () => {
    const index = new ActionIndex(
      ["straße:GetΣ", "straße:Getσ", "STRASSE:Put", "svc:ΑΣ", "svc:Other"].map(info),
    );
    const patterns = ["straße:getς", "STRASSE:*", "strasse:get?", "svc:ας", "svc:*Σ", "*:*σ"];
    for (const pattern of patterns) {
      expect({ pattern, bits: [...index.expandPattern(pattern)] }).toEqual({
        pattern,
        bits: [...reference(index, pattern)],
      });
    }
    // The final sigma of a pattern matches a name's capital and small sigma alike.
    expect(count(index.expandPattern("straße:getς"))).toBe(2);
    expect(count(index.expandPattern("svc:*Σ"))).toBe(1);
  });
});
