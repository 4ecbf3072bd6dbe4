import { describe, expect, it } from "vitest";
import {
  type AzureConditionNode,
  conditionOutcome,
  conditionPassingBits,
  parseAzureCondition,
} from "../src/azure/azure-condition.ts";
import { compileOperationPattern, matchOperation } from "../src/azure/azure-operations.ts";

const BLOB = "Microsoft.Storage/storageAccounts/blobServices/containers/blobs";
const CONTAINER_READ = "Microsoft.Storage/storageAccounts/blobServices/containers/read";

function parsed(text: string): AzureConditionNode {
  const result = parseAzureCondition(text);
  if ("error" in result) throw new Error(result.error);
  return result.node;
}

/** true: passes whatever the request; false: refuses; undefined: the request decides. */
function outcome(text: string, action: string): boolean | undefined {
  return conditionOutcome(parsed(text), (pattern) =>
    matchOperation(compileOperationPattern(pattern.toLowerCase()), action),
  );
}

// Conditions quoted from Microsoft Learn: 'Azure role assignment condition format and syntax'
// (sections named in each test) and 'Example Azure role assignment conditions for Blob Storage'.
describe("Azure role assignment conditions: the actions they target", () => {
  it("simple condition: only the targeted action depends on the request ('Simple condition', 'How a condition is evaluated')", () => {
    const simple = `(
    (
        !(ActionMatches{'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read'})
    )
    OR 
    (
        @Resource[Microsoft.Storage/storageAccounts/blobServices/containers:name]
        StringEquals 'blobs-example-container'
    )
)`;
    expect(outcome(simple, `${BLOB}/read`)).toBeUndefined();
    // "If a user tries to perform an action in the role assignment that is not <action>,
    // !(ActionMatches) evaluates to true and the overall condition evaluates to true".
    expect(outcome(simple, `${BLOB}/write`)).toBe(true);
    expect(outcome(simple, CONTAINER_READ)).toBe(true);
  });

  it("suboperation: the action stays conditional, others pass ('Suboperations', 'And' operator example)", () => {
    // 'Suboperations' format, with the action and suboperation of the 'Read a blob' example.
    const withSub = `(
    (
        !(ActionMatches{'${BLOB}/read'}
        AND
        SubOperationMatches{'Blob.List'})

    )
    OR
    (
        @Resource[Microsoft.Storage/storageAccounts/blobServices/containers:name] StringEquals 'blobs-example-container'
    )
)`;
    expect(outcome(withSub, `${BLOB}/read`)).toBeUndefined();
    expect(outcome(withSub, `${BLOB}/delete`)).toBe(true);
    // 'Logical operators', And: "!(ActionMatches{'…/blobs/read'} AND NOT SubOperationMatches{'Blob.List'})",
    // in 'Example: Read blobs with a blob index tag'.
    const andNot = `(
 (
  !(ActionMatches{'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read'} AND NOT SubOperationMatches{'Blob.List'})
 )
 OR 
 (
  @Resource[Microsoft.Storage/storageAccounts/blobServices/containers/blobs/tags:Project<$key_case_sensitive$>] StringEquals 'Cascade'
 )
)`;
    expect(outcome(andNot, `${BLOB}/read`)).toBeUndefined();
    expect(outcome(andNot, CONTAINER_READ)).toBe(true);
  });

  it("multiple actions joined by AND, attributes in brackets with '&' and '$' ('Multiple actions'; 'Existing blobs must have blob index tag keys')", () => {
    const multiple = `(
 (
  !(ActionMatches{'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/write'} AND SubOperationMatches{'Blob.Write.WithTagHeaders'})
  AND
  !(ActionMatches{'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/tags/write'})
 )
 OR 
 (
  @Request[Microsoft.Storage/storageAccounts/blobServices/containers/blobs/tags&$keys$&] ForAllOfAnyValues:StringEquals {'Project', 'Program'}
 )
)`;
    expect(outcome(multiple, `${BLOB}/write`)).toBeUndefined();
    expect(outcome(multiple, `${BLOB}/tags/write`)).toBeUndefined();
    expect(outcome(multiple, `${BLOB}/read`)).toBe(true);
    expect(outcome(multiple, `${BLOB}/delete`)).toBe(true);
  });

  it("multiple conditions joined by AND; GUID lists ('Multiple conditions'; delegation example 'Constrain roles')", () => {
    const constrain = `(
 (
  !(ActionMatches{'Microsoft.Authorization/roleAssignments/write'})
 )
 OR 
 (
  @Request[Microsoft.Authorization/roleAssignments:RoleDefinitionId] ForAnyOfAnyValues:GuidEquals {5e467623-bb1f-42f4-a55d-6e525e11384b, a795c7a0-d4a2-40c1-ae25-d81f01202912}
 )
)
AND
(
 (
  !(ActionMatches{'Microsoft.Authorization/roleAssignments/delete'})
 )
 OR 
 (
  @Resource[Microsoft.Authorization/roleAssignments:RoleDefinitionId] ForAnyOfAnyValues:GuidEquals {5e467623-bb1f-42f4-a55d-6e525e11384b, a795c7a0-d4a2-40c1-ae25-d81f01202912}
 )
)`;
    expect(outcome(constrain, "Microsoft.Authorization/roleAssignments/write")).toBeUndefined();
    expect(outcome(constrain, "Microsoft.Authorization/roleAssignments/delete")).toBeUndefined();
    expect(outcome(constrain, "Microsoft.Authorization/roleAssignments/read")).toBe(true);
    expect(outcome(constrain, "Microsoft.Support/supportTickets/write")).toBe(true);
  });

  it("ActionMatches patterns with wildcards, without regard to case ('Function operators', ActionMatches)", () => {
    // "ActionMatches{'Microsoft.Authorization/roleAssignments/*'}: If the action being checked
    // equals "Microsoft.Authorization/roleAssignments/write", then true"; roleDefinitions/*: false.
    const write = "Microsoft.Authorization/roleAssignments/write";
    expect(outcome("ActionMatches{'Microsoft.Authorization/roleAssignments/*'}", write)).toBe(true);
    expect(outcome("ActionMatches{'Microsoft.Authorization/roleDefinitions/*'}", write)).toBe(
      false,
    );
    const targeted =
      "!(ActionMatches{'microsoft.authorization/roleassignments/*'}) OR @Request[x] StringEquals 'y'";
    expect(outcome(targeted, write)).toBeUndefined();
    expect(outcome(targeted, "Microsoft.Authorization/roleDefinitions/write")).toBe(true);
  });

  it("OR between action tests, && || ! and NOT Exists ('Logical operators', 'Function operators')", () => {
    const either = `(!(ActionMatches{'${BLOB}/read'} OR ActionMatches{'${BLOB}/write'})) || (NOT Exists @Request[${BLOB}:snapshot])`;
    expect(outcome(either, `${BLOB}/read`)).toBeUndefined();
    expect(outcome(either, `${BLOB}/write`)).toBeUndefined();
    expect(outcome(either, `${BLOB}/delete`)).toBe(true);
    const symbols = `!(ActionMatches{'${BLOB}/read'} && !SubOperationMatches{'Blob.List'}) || @Environment[isPrivateLink] BoolEquals true`;
    expect(outcome(symbols, `${BLOB}/read`)).toBeUndefined();
    expect(outcome(symbols, `${BLOB}/write`)).toBe(true);
    // 'Cross product comparison operators' examples read as attribute expressions.
    expect(
      outcome(
        `!(ActionMatches{'${BLOB}/read'}) OR {'red', 'blue'} ForAnyOfAnyValues:StringEquals {'blue', 'green'}`,
        `${BLOB}/read`,
      ),
    ).toBeUndefined();
  });

  it("attributes compared with attributes, nested groups ('Allow read access to highly sensitive blob data only from a specific private endpoint…')", () => {
    const nested = `( 
 ( 
  !(ActionMatches{'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read'} AND NOT SubOperationMatches{'Blob.List'}) 
 ) 
 OR  
 ( 
  ( 
   @Principal[Microsoft.Directory/CustomSecurityAttributes/Id:sensitivity] StringEqualsIgnoreCase @Resource[Microsoft.Storage/storageAccounts/blobServices/containers/blobs/tags:sensitivity<$key_case_sensitive$>] 
   AND 
   @Environment[Microsoft.Network/privateEndpoints] StringEqualsIgnoreCase '/subscriptions/<your subscription id>/resourceGroups/example-group/providers/Microsoft.Network/privateEndpoints/privateendpoint1'
  ) 
  OR 
  @Resource[Microsoft.Storage/storageAccounts/blobServices/containers/blobs/tags:sensitivity<$key_case_sensitive$>] StringNotEquals 'high' 
 ) 
) `;
    expect(outcome(nested, `${BLOB}/read`)).toBeUndefined();
    expect(outcome(nested, `${BLOB}/write`)).toBe(true);
  });

  it("an action test that cannot pass, or always does, whatever the request", () => {
    expect(outcome(`!(ActionMatches{'${BLOB}/read'})`, `${BLOB}/read`)).toBe(false);
    expect(
      outcome(`ActionMatches{'${BLOB}/read'} AND @Request[x] StringEquals 'y'`, `${BLOB}/write`),
    ).toBe(false);
    expect(
      outcome(`ActionMatches{'${BLOB}/read'} OR @Request[x] StringEquals 'y'`, `${BLOB}/read`),
    ).toBe(true);
  });

  it("does not read what Azure's syntax does not allow: the caller keeps every action conditional", () => {
    const errors = [
      // 'Grouping and precedence': "a AND b OR c" must be parenthesized.
      `!(ActionMatches{'${BLOB}/read'}) AND !(ActionMatches{'${BLOB}/write'}) OR @Request[x] StringEquals 'y'`,
      // 'Logical operators', Or example as printed, its last ']' missing.
      "@Request[Microsoft.Storage/storageAccounts/blobServices/containers/blobs:versionId] DateTimeEquals '2022-06-01T00:00:00.0Z' OR NOT Exists @Request[Microsoft.Storage/storageAccounts/blobServices/containers/blobs:versionId",
      `((!(ActionMatches{'${BLOB}/read'})) OR (@Resource[x] StringEquals 'y')`,
      `!(ActionMatches{'${BLOB}/read'})) OR (@Resource[x] StringEquals 'y')`,
      `!(ActionMatches{'${BLOB}/read', '${BLOB}/write'}) OR @Resource[x] StringEquals 'y'`,
      `!(ActionMatches '${BLOB}/read') OR @Resource[x] StringEquals 'y'`,
      `!(ActionMatches{'${BLOB}/read'}) OR @Resource[x] StringEquals 'y`,
      `!(ActionMatches{'${BLOB}/read'}) OR`,
      `!(ActionMatches{'${BLOB}/read'}) & @Resource[x] StringEquals 'y'`,
      "",
      `${"(".repeat(100_000)}@Resource[x] StringEquals 'y'${")".repeat(100_000)}`,
      `${"!".repeat(100_000)}(ActionMatches{'${BLOB}/read'})`,
    ];
    for (const text of errors) expect(parseAzureCondition(text), text).toHaveProperty("error");
  });

  it("gives the same answer over bit sets as action by action", () => {
    const actions = [
      `${BLOB}/read`,
      `${BLOB}/write`,
      `${BLOB}/add/action`,
      `${BLOB}/delete`,
      CONTAINER_READ,
      "Microsoft.Authorization/roleAssignments/write",
      "Microsoft.Authorization/roleAssignments/delete",
    ];
    const matching = (pattern: string) => {
      const glob = compileOperationPattern(pattern.toLowerCase());
      const bits = new Uint32Array(1);
      actions.forEach((a, i) => {
        if (matchOperation(glob, a)) bits[0] = (bits[0] as number) | (1 << i);
      });
      return bits;
    };
    const conditions = [
      `((!(ActionMatches{'${BLOB}/read'})) OR (@Resource[x] StringEquals 'y'))`,
      `(!(ActionMatches{'${BLOB}/write'} AND SubOperationMatches{'Blob.Write.WithTagHeaders'}) AND !(ActionMatches{'${BLOB}/add/action'} AND SubOperationMatches{'Blob.Write.WithTagHeaders'})) OR (@Request[x] StringEquals 'y')`,
      "(!(ActionMatches{'Microsoft.Authorization/roleAssignments/*'})) OR (@Request[x] StringEquals 'y')",
      `ActionMatches{'${BLOB}/*'} AND NOT (ActionMatches{'${BLOB}/read'} OR @Request[x] StringEquals 'y')`,
    ];
    for (const text of conditions) {
      const node = parsed(text);
      const bits = conditionPassingBits(node, matching, 1);
      actions.forEach((a, i) => {
        const one = conditionOutcome(node, (p) =>
          matchOperation(compileOperationPattern(p.toLowerCase()), a),
        );
        expect(((bits[0] as number) >>> i) & 1, `${text} ${a}`).toBe(one === true ? 1 : 0);
      });
    }
  });
});
