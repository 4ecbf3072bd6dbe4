// Benchmark: pnpm --filter @sightline/engine bench:patterns
// Pathological wildcard patterns in a customer's policy, through `authorize`, against the
// backtracking regular expression the engine used before (`*` → `.*`), run in a child process
// and stopped after a time cap.
import { spawnSync } from "node:child_process";
import { authorize, createAccountModel } from "../src/index.ts";

const CAP_MS = 10_000;
const ACCOUNT = "111111111111";
const USER = `arn:aws:iam::${ACCOUNT}:user/probe`;

interface Case {
  name: string;
  /** The Resource pattern of the Allow, or the StringLike value when `contextKey` is set. */
  pattern: string;
  resource: string;
  contextKey?: string;
  contextValue?: string;
}

const cases: Case[] = [
  {
    name: "Resource *a*a*a*a*a*b, 133-character ARN",
    pattern: "arn:aws:s3:::*a*a*a*a*a*b",
    resource: `arn:aws:s3:::${"a".repeat(120)}`,
  },
  {
    name: "Resource *-*-*-*-prod, 1 KB object ARN",
    pattern: "arn:aws:s3:::*-*-*-*-prod",
    resource: `arn:aws:s3:::bucket/${"x-".repeat(500)}`,
  },
  {
    name: "StringLike *a*…*a*b (10 stars), 4 KB value",
    pattern: `${"*a".repeat(10)}*b`,
    resource: "arn:aws:s3:::bucket",
    contextKey: "s3:prefix",
    contextValue: "a".repeat(4096),
  },
];

function modelOf(c: Case) {
  const statement = c.contextKey
    ? {
        Effect: "Allow",
        Action: "s3:ListBucket",
        Resource: "*",
        Condition: { StringLike: { [c.contextKey]: c.pattern } },
      }
    : { Effect: "Allow", Action: "s3:GetObject", Resource: c.pattern };
  return createAccountModel([
    {
      authorizationDetails: {
        UserDetailList: [
          {
            UserName: "probe",
            Arn: USER,
            UserPolicyList: [
              {
                PolicyName: "pattern",
                PolicyDocument: { Version: "2012-10-17", Statement: [statement] },
              },
            ],
          },
        ],
      },
    },
  ]);
}

/** The former matcher: an anchored regular expression, `*` → `.*`, in a child with a cap. */
function regexBaselineMs(pattern: string, text: string): number | undefined {
  const source = pattern
    .split("*")
    .map((piece) => piece.replace(/[.+?^${}()|[\]\\/]/g, "\\$&"))
    .join(".*");
  const script = `const re = new RegExp(${JSON.stringify(`^${source}$`)}, "s");
const t = performance.now(); re.test(${JSON.stringify(text)});
process.stdout.write(String(performance.now() - t));`;
  const run = spawnSync(process.execPath, ["-e", script], { timeout: CAP_MS, encoding: "utf8" });
  return run.status === 0 ? Number(run.stdout) : undefined;
}

const rows: string[][] = [];
for (const c of cases) {
  const model = modelOf(c);
  const request = {
    principal: USER,
    action: c.contextKey ? "s3:ListBucket" : "s3:GetObject",
    resource: c.resource,
    ...(c.contextKey ? { context: { [c.contextKey]: c.contextValue ?? "" } } : {}),
  };
  const decision = authorize(model, request).decision;
  const runs = 200;
  const started = performance.now();
  for (let i = 0; i < runs; i++) authorize(model, request);
  const perRequest = (performance.now() - started) / runs;
  const baseline = regexBaselineMs(c.pattern, c.contextValue ?? c.resource);
  rows.push([
    c.name,
    decision,
    `${perRequest.toFixed(3)} ms`,
    baseline === undefined ? `> ${CAP_MS / 1000} s (stopped)` : `${baseline.toFixed(1)} ms`,
    baseline === undefined
      ? `> ${Math.round(CAP_MS / perRequest).toLocaleString("en-US")}×`
      : `${(baseline / perRequest).toFixed(0)}×`,
  ]);
}

console.log(
  "| pattern | decision | authorize, per request | backtracking regex (before) | ratio |",
);
console.log("|---|---|---|---|---|");
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
