import { describe, expect, it } from "vitest";
import { validateIdentityPolicy } from "./validate-policy-document.ts";

type Doc = Record<string, unknown> & { Statement: [Record<string, unknown>] };

const base = (): Doc => ({
  Version: "2012-10-17",
  Statement: [{ Sid: "A", Effect: "Deny", Action: ["iam:CreateUser"], Resource: "*" }],
});

describe("validateIdentityPolicy", () => {
  it("accepts a minimal valid document", () => {
    expect(validateIdentityPolicy(base())).toEqual([]);
  });

  it.each([
    ["an unknown top-level key", (d: Doc) => Object.assign(d, { Extra: 1 }), /top-level key Extra/],
    ["a wrong Version", (d: Doc) => Object.assign(d, { Version: "2008-10-17" }), /Version/],
    [
      "an unknown statement key",
      (d: Doc) => Object.assign(d.Statement[0], { Foo: 1 }),
      /unknown key Foo/,
    ],
    ["a bad Effect", (d: Doc) => Object.assign(d.Statement[0], { Effect: "Maybe" }), /Effect/],
    [
      "a malformed action",
      (d: Doc) => Object.assign(d.Statement[0], { Action: ["CreateUser"] }),
      /not service:Action/,
    ],
    [
      "a duplicate action in another case",
      (d: Doc) => Object.assign(d.Statement[0], { Action: ["iam:CreateUser", "IAM:createuser"] }),
      /duplicate action/,
    ],
    ["a Principal", (d: Doc) => Object.assign(d.Statement[0], { Principal: "*" }), /Principal/],
    [
      "a missing Resource",
      (d: Doc) => {
        delete d.Statement[0].Resource;
      },
      /Resource/,
    ],
    [
      "a document over the size limit",
      (d: Doc) =>
        Object.assign(d.Statement[0], {
          Action: Array.from({ length: 400 }, (_, i) => `iam:Action${String(i).padStart(8, "0")}`),
        }),
      /exceeds the limit/,
    ],
  ])("rejects %s", (_, mutate, message) => {
    const doc = base();
    mutate(doc);
    expect(validateIdentityPolicy(doc).join("\n")).toMatch(message);
  });
});
