import { PARTITIONS } from "@sightline/engine/arn";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AccountId,
  AwsPartition,
  CustomerId,
  freeText,
  opaqueText,
  PartnerCustomerId,
  PartnerId,
  Provider,
} from "./identifiers.ts";
import { KmsKeyArn } from "./partner.ts";

describe("identifier patterns (section 2.1)", () => {
  it("accept what the contract allows", () => {
    expect(PartnerId.safeParse("P000123").success).toBe(true);
    expect(CustomerId.safeParse("C12345").success).toBe(true);
    expect(CustomerId.safeParse("C123456").success).toBe(true);
    expect(PartnerCustomerId.safeParse("a.b_c-d").success).toBe(true);
    expect(PartnerCustomerId.safeParse("x".repeat(64)).success).toBe(true);
    expect(AccountId.safeParse("012345678901").success).toBe(true);
    expect(AccountId.safeParse("0b1f6471-1bf0-4dda-aec3-111122223333").success).toBe(true);
  });

  it("reject near misses", () => {
    for (const bad of ["P12345", "P1234567", "p123456", " P123456", "P123456\n"]) {
      expect(PartnerId.safeParse(bad).success).toBe(false);
    }
    for (const bad of ["C1234", "C1234567", "c12345"])
      expect(CustomerId.safeParse(bad).success).toBe(false);
    for (const bad of ["abcde", "x".repeat(65), "has space", "slash/no", "ünïcode"]) {
      expect(PartnerCustomerId.safeParse(bad).success).toBe(false);
    }
    for (const bad of ["12345678901", "1234567890123", "12345678901a"]) {
      expect(AccountId.safeParse(bad).success).toBe(false);
    }
  });

  it("accept a partner customer ID exactly when it is 6-64 of [A-Za-z0-9_.-]", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (value) => {
        const expected =
          value.length >= 6 &&
          value.length <= 64 &&
          [...value].every((ch) => /[A-Za-z0-9_.-]/.test(ch));
        expect(PartnerCustomerId.safeParse(value).success).toBe(expected);
      }),
    );
  });
});

describe("partitions", () => {
  it("are the engine's list, for providers and for KMS key ARNs", () => {
    expect(AwsPartition.options).toEqual([...PARTITIONS]);
    expect(Provider.options).toEqual([...PARTITIONS, "azure", "azure-government"]);
    const key = (partition: string) =>
      `arn:${partition}:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
    for (const partition of PARTITIONS)
      expect(KmsKeyArn.safeParse(key(partition)).success).toBe(true);
    for (const other of ["aws-cn", "azure", "awsx"])
      expect(KmsKeyArn.safeParse(key(other)).success).toBe(false);
  });
});

describe("free text", () => {
  it("refuses control characters, NUL included, and bounds the length", () => {
    const name = freeText(10);
    expect(name.parse("  Acme  ")).toBe("Acme");
    for (const bad of ["Ac\u0000me", "Ac\u0007me", "line\nbreak", "del\u007f", "c1\u0085"]) {
      expect(name.safeParse(bad).error?.issues[0]?.message).toBe(
        "must not contain control characters",
      );
    }
    expect(name.safeParse("x".repeat(11)).error?.issues[0]?.message).toBe(
      "must be at most 10 characters",
    );
    expect(opaqueText(5).safeParse("a\u0000").success).toBe(false);
    expect(opaqueText(5).parse(" a b ")).toBe(" a b ");
  });
});
