import type { AccountAnalysis } from "@sightline/engine";
import type { ReachDictionary, ReachNumbering } from "./reach-encoding.ts";
import {
  PrincipalRecords,
  type RecordedPrincipal,
  type RecordedResource,
  ResourceRecords,
} from "./record-text.ts";
import type { PrincipalRecord } from "./result-records.ts";

/** An analysis as the store needs it: the engine's rows and what collection adds to them. */
export interface AnalysisForResults {
  analysis: AccountAnalysis;
  principalDetails: (arn: string) => Pick<PrincipalRecord, "lastUsed" | "credentials">;
  resourceDetails: (arn: string) => { name: string; tags: Readonly<Record<string, string>> };
  /** Collected resources the engine has no row of (e.g. a key whose policy was not read). */
  extraResources?: Iterable<{ resourceArn: string; resourceType: string; service: string }>;
}

/** One analysis's records, ready to store: deflated, with what the findings read of them. */
export interface RecordedResults {
  principals: readonly RecordedPrincipal[];
  resources: readonly RecordedResource[];
  reachDictionary: ReachDictionary;
}

interface RecordedResourceList {
  recorded: RecordedResource[];
  dictionary: ReachDictionary;
}

/**
 * Builds the store's records of one analysis from the engine's access rows while the reports
 * read them (`observed`): the large account's 7.7 M rows are made once, not once for the reports
 * and again for the store. What no report read to its end is read by `records`.
 */
export class ResultsRecorder {
  #input: AnalysisForResults | undefined;
  #principals: RecordedPrincipal[] | undefined;
  #resources: RecordedResourceList | undefined;

  constructor(input: AnalysisForResults) {
    this.#input = input;
  }

  /** What it records (until `release`). */
  get input(): AnalysisForResults {
    if (!this.#input)
      throw new Error("The results recorder was released after its results were stored.");
    return this.#input;
  }

  /**
   * Lets go of the analysis and the records once they are stored: the comparison that follows
   * reads both analyses back from the store, and the large account's model, analysis and
   * records (about 200 MiB) would otherwise be held through it.
   */
  release(): void {
    this.#input = undefined;
    this.#principals = undefined;
    this.#resources = undefined;
  }

  /** The analysis, whose access rows are recorded the first time each kind is read whole. */
  observed(): AccountAnalysis {
    const { analysis } = this.input;
    const recorder = this;
    return {
      ...analysis,
      *principalAccessSummaries() {
        const builder = recorder.#principals ? undefined : recorder.#principalRecords();
        for (const row of analysis.principalAccessSummaries()) {
          builder?.add(row);
          yield row;
        }
        if (builder && !recorder.#principals) recorder.#principals = builder.finish();
      },
      *resourceAccessSummaries() {
        const builder = recorder.#resources ? undefined : recorder.#resourceRecords();
        for (const row of analysis.resourceAccessSummaries()) {
          builder?.add(row);
          yield row;
        }
        if (builder && !recorder.#resources)
          recorder.#resources = {
            recorded: builder.finish(),
            dictionary: (builder.numbering as ReachNumbering).dictionary(),
          };
      },
    };
  }

  /** The records: those built while the reports were written, the rest built now. */
  records(): RecordedResults {
    const observed = this.observed();
    if (!this.#principals) for (const _ of observed.principalAccessSummaries());
    if (!this.#resources) for (const _ of observed.resourceAccessSummaries());
    const resources = this.#resources as RecordedResourceList;
    return {
      principals: this.#principals as RecordedPrincipal[],
      resources: resources.recorded,
      reachDictionary: resources.dictionary,
    };
  }

  #principalRecords(): PrincipalRecords {
    return new PrincipalRecords(this.input.analysis, this.input.principalDetails);
  }

  #resourceRecords(): ResourceRecords {
    const { analysis, resourceDetails, extraResources } = this.input;
    return new ResourceRecords(analysis, resourceDetails, extraResources);
  }
}
