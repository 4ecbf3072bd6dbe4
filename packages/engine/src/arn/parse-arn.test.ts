import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { accountOfArn, parseArn } from "./parse-arn.ts";

describe("parseArn", () => {
  it("splits the six parts and keeps colons inside the resource", () => {
    expect(parseArn("arn:aws:logs:us-east-1:123456789012:log-group:app:*")).toEqual({
      partition: "aws",
      service: "logs",
      region: "us-east-1",
      accountId: "123456789012",
      resource: "log-group:app:*",
    });
    expect(parseArn("arn:aws-us-gov:s3:::bucket/key")).toMatchObject({
      partition: "aws-us-gov",
      accountId: "",
      resource: "bucket/key",
    });
  });

  it("refuses what is not an ARN", () => {
    for (const text of ["", "*", "123456789012", "arn:aws:s3", "ARN:aws:s3:::b", "x:aws:s3:::b"])
      expect(parseArn(text)).toBeUndefined();
  });

  it("rebuilds the text it parsed", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 8 }), { minLength: 6, maxLength: 9 }),
        (parts) => {
          const text = ["arn", ...parts.slice(1)].join(":");
          const arn = parseArn(text);
          expect(arn).toBeDefined();
          if (!arn) return;
          const { partition, service, region, accountId, resource } = arn;
          expect(["arn", partition, service, region, accountId, resource].join(":")).toBe(text);
        },
      ),
    );
  });

  it("gives the account only when it is 12 digits", () => {
    expect(accountOfArn("arn:aws:iam::123456789012:role/r")).toBe("123456789012");
    expect(accountOfArn("arn:aws:iam::aws:policy/ReadOnlyAccess")).toBeUndefined();
    expect(accountOfArn("arn:aws:s3:::bucket")).toBeUndefined();
  });
});
