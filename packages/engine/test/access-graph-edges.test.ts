import { describe, expect, it } from "vitest";
import {
  buildAccessGraph,
  createAccountModel,
  type EdgeGrant,
  findResourceAccessPaths,
  listAtoms,
} from "../src/index.ts";
import { step } from "./support/graph-steps.ts";
import {
  type AccountSpec,
  allowAssume,
  denyAssume,
  doc,
  roleArn,
  snapshot,
  trust,
} from "./support/iam-snapshots.ts";

const A = "111111111111";
const B = "222222222222";
const TARGET = roleArn(A, "target");

function build(...accounts: AccountSpec[]) {
  const model = createAccountModel(accounts.map(snapshot));
  return { model, graph: buildAccessGraph(model) };
}

describe("same-account trusts", () => {
  const accounts = (trusted: string, statements?: Record<string, unknown>[]) =>
    build({
      id: A,
      roles: [
        { name: "target", trust: trust(trusted) },
        { name: "caller", trust: trust(roleArn(A, "nobody")), ...(statements && { statements }) },
      ],
    });

  it("naming the role ARN needs no identity permission", () => {
    const { graph } = accounts(roleArn(A, "caller"));
    expect(step(graph, roleArn(A, "caller"), TARGET)).toEqual({ conditional: false });
  });

  it("naming the account needs the caller's identity permission", () => {
    expect(step(accounts(A).graph, roleArn(A, "caller"), TARGET)).toBeUndefined();
    const { graph, model } = accounts(A, [allowAssume(TARGET)]);
    expect(step(graph, roleArn(A, "caller"), TARGET)).toEqual({ conditional: false });
    const paths = findResourceAccessPaths(graph, model, TARGET, {
      service: "STS",
      capabilities: ["use-resource"],
    });
    expect(paths.accessPaths.map((p) => p.nodes)).toEqual([[A], [A, roleArn(A, "caller")]]);
  });
});

describe("each policy type can cut an edge", () => {
  const cross = (caller: Partial<AccountSpec> & { statements: Record<string, unknown>[] }) =>
    build(
      { id: A, roles: [{ name: "target", trust: trust(roleArn(B, "caller")) }] },
      {
        id: B,
        roles: [
          {
            name: "caller",
            trust: trust(roleArn(B, "nobody")),
            statements: caller.statements,
            ...(caller.policies && { boundaryArn: `arn:aws:iam::${B}:policy/boundary` }),
          },
        ],
        ...(caller.policies && { policies: caller.policies }),
        ...(caller.organization && { organization: caller.organization }),
      },
    );
  const caller = roleArn(B, "caller");

  it("the edge exists when identity and trust allow", () => {
    expect(step(cross({ statements: [allowAssume()] }).graph, caller, TARGET)).toBeDefined();
  });

  it("an explicit deny in the caller's identity policy", () => {
    const { graph } = cross({ statements: [allowAssume(), denyAssume(TARGET)] });
    expect(step(graph, caller, TARGET)).toBeUndefined();
  });

  it("a permissions boundary that does not allow sts:AssumeRole", () => {
    const boundary = doc({ Effect: "Allow", Action: "s3:*", Resource: "*" });
    const { graph } = cross({
      statements: [allowAssume()],
      policies: { [`arn:aws:iam::${B}:policy/boundary`]: boundary },
    });
    expect(step(graph, caller, TARGET)).toBeUndefined();
  });

  it("an SCP of the caller's account", () => {
    const scp = doc({ Effect: "Allow", Action: "*", Resource: "*" }, denyAssume(TARGET));
    const { graph } = cross({
      statements: [allowAssume()],
      organization: {
        organizationId: "o-abc",
        serviceControlPolicies: [{ target: "r-root", policies: [{ document: scp }] }],
      },
    });
    expect(step(graph, caller, TARGET)).toBeUndefined();
  });

  it("a deny in the trust policy", () => {
    const { graph } = build(
      {
        id: A,
        roles: [
          {
            name: "target",
            trust: doc(
              { Effect: "Allow", Principal: { AWS: B }, Action: "sts:AssumeRole" },
              { Effect: "Deny", Principal: { AWS: caller }, Action: "sts:AssumeRole" },
            ),
          },
        ],
      },
      {
        id: B,
        roles: [
          { name: "caller", trust: trust(roleArn(B, "x")), statements: [allowAssume()] },
          { name: "other", trust: trust(roleArn(B, "x")), statements: [allowAssume()] },
        ],
      },
    );
    expect(step(graph, caller, TARGET)).toBeUndefined();
    expect(step(graph, roleArn(B, "other"), TARGET)).toEqual({ conditional: false });
  });
});

describe("conditional trusts", () => {
  it("sts:ExternalId makes the edge conditional and carries the condition", () => {
    const { graph, model } = build(
      {
        id: A,
        roles: [
          {
            name: "target",
            trust: trust(B, { StringEquals: { "sts:ExternalId": "acme-7f3e" } }),
          },
        ],
      },
      {
        id: B,
        roles: [{ name: "caller", trust: trust(roleArn(B, "x")), statements: [allowAssume()] }],
      },
    );
    const accountEdge = graph.graph.getEdgeAttributes(B, TARGET) as EdgeGrant;
    expect(accountEdge.conditional).toBe(true);
    expect(listAtoms(accountEdge.condition ?? { kind: "true" }).map((a) => a.key)).toEqual([
      "sts:ExternalId",
    ]);
    const grant = step(graph, roleArn(B, "caller"), TARGET);
    expect(grant?.conditional).toBe(true);
    const paths = findResourceAccessPaths(graph, model, TARGET, {
      service: "STS",
      capabilities: ["use-resource"],
    }).accessPaths;
    expect(paths).not.toHaveLength(0);
    expect(paths.every((p) => p.conditional)).toBe(true);
  });

  it("aws:PrincipalOrgID decides for analysed accounts and stays open for `*`", () => {
    const orgTrust = doc({
      Effect: "Allow",
      Principal: "*",
      Action: "sts:AssumeRole",
      Condition: { StringEquals: { "aws:PrincipalOrgID": "o-abc" } },
    });
    const member = (id: string, org: string): AccountSpec => ({
      id,
      roles: [{ name: "caller", trust: trust(roleArn(id, "x")), statements: [allowAssume()] }],
      organization: { organizationId: org },
    });
    const { graph } = build(
      {
        id: A,
        roles: [{ name: "target", trust: orgTrust }],
        organization: { organizationId: "o-abc" },
      },
      member(B, "o-abc"),
      member("333333333333", "o-other"),
    );
    expect(step(graph, roleArn(B, "caller"), TARGET)).toEqual({ conditional: false });
    expect(step(graph, roleArn("333333333333", "caller"), TARGET)).toBeUndefined();
    // Same account, `*`: no identity permission needed, the org is known.
    expect(step(graph, TARGET, TARGET)).toEqual({ conditional: false });
    const anyone = graph.graph.getEdgeAttributes("*", TARGET) as EdgeGrant;
    expect(anyone.conditional).toBe(true);
  });
});

describe("leaves and graph shape", () => {
  const { graph } = build({
    id: A,
    roles: [
      {
        name: "target",
        trust: doc(
          {
            Effect: "Allow",
            Principal: { Service: "lambda.amazonaws.com" },
            Action: "sts:AssumeRole",
          },
          {
            Effect: "Allow",
            Principal: {
              Federated: `arn:aws:iam::${A}:oidc-provider/token.actions.githubusercontent.com`,
            },
            Action: "sts:AssumeRoleWithWebIdentity",
            Condition: { StringLike: { "token.actions.githubusercontent.com:sub": "repo:acme/*" } },
          },
          {
            Effect: "Allow",
            Principal: { AWS: ["999999999999", roleArn("888888888888", "ci")] },
            Action: "sts:AssumeRole",
          },
        ),
      },
    ],
  });

  it("services, providers and outside accounts are leaves with evaluated edges", () => {
    const g = graph.graph;
    expect(g.getNodeAttribute("lambda.amazonaws.com", "kind")).toBe("service");
    const provider = `arn:aws:iam::${A}:oidc-provider/token.actions.githubusercontent.com`;
    expect(g.getNodeAttribute(provider, "kind")).toBe("federated");
    expect(g.getEdgeAttributes(provider, TARGET)).toMatchObject({
      action: "sts:AssumeRoleWithWebIdentity",
      conditional: true,
    });
    expect(g.getNodeAttributes("999999999999")).toEqual({
      kind: "account",
      accountId: "999999999999",
      analysed: false,
    });
    expect(g.getNodeAttribute(roleArn("888888888888", "ci"), "kind")).toBe("external");
    expect(g.inDegree(TARGET)).toBe(4);
  });

  it("exposes counts and is immutable", () => {
    expect(graph.nodeCount).toBe(graph.graph.order);
    expect(graph.edgeCount).toBe(4);
    expect(graph.stats).toMatchObject({ roles: 1, leaves: 3, accountNodes: 1, assumeEdges: 3 });
    expect(Object.isFrozen(graph)).toBe(true);
  });
});
