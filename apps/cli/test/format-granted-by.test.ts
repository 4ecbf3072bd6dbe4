import { describe, expect, it } from "vitest";
import {
  formatGrantedBy,
  formatIamAdmin,
  formatPrincipalAccess,
} from "../src/format-granted-by.ts";

describe("formatGrantedBy", () => {
  it("names each kind of policy as a reviewer finds it", () => {
    expect(
      formatGrantedBy([
        {
          policyType: "managed",
          policyArn: "arn:aws:iam::aws:policy/AdministratorAccess",
          policyName: "AdministratorAccess",
          sids: ["#0"],
        },
        { policyType: "inline", policyName: "x", sids: ["Sid1", "Sid2"] },
        {
          policyType: "group-inline",
          policyName: "g",
          group: "arn:aws:iam::111122223333:group/path/admins",
          sids: ["All"],
        },
        {
          policyType: "group-managed",
          policyArn: "arn:aws:iam::111122223333:policy/Readers",
          policyName: "Readers",
          group: "arn:aws:iam::111122223333:group/readers",
          sids: ["R"],
        },
        { policyType: "resource", policyArn: "arn:aws:s3:::reports", sids: ["Partner"] },
      ]),
    ).toBe(
      "granted by: AdministratorAccess (managed, arn:aws:iam::aws:policy/AdministratorAccess) [#0], " +
        "inline 'x' [Sid1, Sid2], group-inline 'g' via group 'admins' [All], " +
        "Readers (group-managed, arn:aws:iam::111122223333:policy/Readers) via group 'readers' [R], " +
        "resource policy of arn:aws:s3:::reports [Partner]",
    );
  });

  it("says so when no statement grants the row", () => {
    expect(formatGrantedBy([])).toBe("granted by: no policy statement");
    expect(formatGrantedBy(undefined)).toBe("granted by: no policy statement");
  });

  it("lists an IAM admin's first ten actions and how many there are", () => {
    const actions = Array.from({ length: 12 }, (_, i) => `iam:Action${i}`);
    const line = formatIamAdmin({
      principalArn: "arn:aws:iam::111122223333:role/admin",
      principalName: "admin",
      principalType: "IAMRole",
      accountId: "111122223333",
      iamAdmin: "yes",
      groupArns: [],
      tags: {},
      iamAdminGrantedBy: [{ policyType: "inline", policyName: "iam", sids: ["#0"] }],
      iamAdminActions: actions,
    });
    expect(line).toBe(
      `arn:aws:iam::111122223333:role/admin: IAM admin; granted by: inline 'iam' [#0]; actions: ${actions.slice(0, 10).join(", ")}, … (12 actions)`,
    );
  });

  it("names an Azure row's scopes cut at that scope only with the readable marker", () => {
    const rg = "/subscriptions/s/resourceGroups/rg-data";
    const line = formatPrincipalAccess({
      principalArn: "aaaaaaaa-0000-0000-0000-000000000003",
      principalName: "user 3",
      principalType: "AzureUser",
      service: "Microsoft.Storage",
      capability: "administer-resource",
      resourceArn: "",
      conditional: false,
      exceptResources: [`${rg}/providers/Microsoft.Storage/storageAccounts/sadata`],
      exceptResourcesThisScopeOnly: [rg],
      grantedBy: [],
    });
    expect(line).toBe(
      `aaaaaaaa-0000-0000-0000-000000000003: Microsoft.Storage administer-resource service-wide except ${rg}/providers/Microsoft.Storage/storageAccounts/sadata, ${rg} (this scope only); granted by: no policy statement`,
    );
  });
});
