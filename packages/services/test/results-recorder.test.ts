import { analyzeAccount, createAccountModel } from "@sightline/engine";
import { describe, expect, it } from "vitest";
// The engine's bench generator (not part of its package exports): an account of 100 principals.
import { ACCOUNT, generateAccount, SIZES } from "../../engine/bench/generate-account.ts";
import { PrincipalRecords } from "../src/results/record-text.ts";
import { decodePrincipal } from "../src/results/result-records.ts";
import { type AnalysisForResults, ResultsRecorder } from "../src/results/results-recorder.ts";

const input = (): AnalysisForResults => ({
  analysis: analyzeAccount(createAccountModel(generateAccount(SIZES.small)), {
    accounts: [ACCOUNT],
  }),
  principalDetails: () => ({ credentials: {} }),
  resourceDetails: (arn) => ({ name: arn.slice(arn.lastIndexOf(":") + 1), tags: {} }),
});

/** What is stored of the records, comparable. */
const storedOf = (recorder: ResultsRecorder) => {
  const { principals, resources, reachDictionary } = recorder.records();
  return {
    principals: principals.map((p) => [p.stored.principalArn, p.stored.data.toString("base64")]),
    resources: resources.map((r) => [r.stored.resourceArn, r.stored.data.toString("base64")]),
    summaries: resources.map((r) => [...r.summary.holders]),
    reachDictionary,
  };
};

describe("the store's records, built while the reports read the rows", () => {
  it("are the records a pass of their own builds, every row still reaching the reader", () => {
    const alone = storedOf(new ResultsRecorder(input()));
    const recorder = new ResultsRecorder(input());
    const observed = recorder.observed();
    let principalRows = 0;
    let resourceRows = 0;
    for (const _ of observed.principalAccessSummaries()) principalRows++;
    for (const _ of observed.resourceAccessSummaries()) resourceRows++;
    // A second reading (another format) is not recorded twice.
    for (const _ of observed.resourceAccessSummaries()) resourceRows++;
    expect(principalRows).toBe([...recorder.input.analysis.principalAccessSummaries()].length);
    expect(resourceRows).toBe(2 * [...recorder.input.analysis.resourceAccessSummaries()].length);
    expect(alone.principals.length).toBe(recorder.input.analysis.principals.length);
    expect(alone.resources.length).toBeGreaterThan(0);
    expect(alone.reachDictionary.principals.length).toBeGreaterThan(0);
    expect(storedOf(recorder)).toEqual(alone);
  });

  it("reads again what a reader left unfinished", () => {
    const alone = storedOf(new ResultsRecorder(input()));
    const recorder = new ResultsRecorder(input());
    const observed = recorder.observed();
    let read = 0;
    for (const _ of observed.resourceAccessSummaries()) if (++read > 10) break;
    expect(read).toBe(11);
    expect(storedOf(recorder)).toEqual(alone);
  });

  it("lets go of the analysis and its records once released, and says so when asked again", () => {
    const recorder = new ResultsRecorder(input());
    const { principals } = recorder.records();
    expect(principals.length).toBeGreaterThan(0);
    recorder.release();
    expect(() => recorder.input).toThrow(/released after its results were stored/);
    expect(() => recorder.records()).toThrow(/released/);
  });

  it("never gives a principal the rows of one the analysis does not list", () => {
    const principal = (name: string) => ({
      principalArn: `arn:aws:iam::${ACCOUNT}:user/${name}`,
      principalName: name,
      principalType: "IAMUser",
      iamAdmin: "no",
      iamAdminGrantedBy: [],
    });
    const row = (name: string) => ({
      principalArn: `arn:aws:iam::${ACCOUNT}:user/${name}`,
      service: "S3",
      capability: "read-data",
      resourceArn: "*",
      conditional: false,
      grantedBy: [],
    });
    const analysis = {
      principals: [principal("listed"), principal("quiet")],
      *principalAccessSummaries() {
        yield row("listed");
        yield row("ghost");
      },
    } as unknown as AnalysisForResults["analysis"];
    const records = new PrincipalRecords(analysis, () => ({ credentials: {} }));
    for (const r of analysis.principalAccessSummaries()) records.add(r);
    const byName = new Map(records.finish().map((p) => [p.head.name, decodePrincipal(p.stored)]));
    expect([...byName.keys()].sort()).toEqual(["listed", "quiet"]);
    expect(byName.get("listed")?.access).toHaveLength(1);
    expect(byName.get("quiet")?.access).toEqual([]);
  });
});
