import { createInflateRaw } from "node:zlib";
import {
  analysisReachDictionary,
  analysisReachDictionaryAdded,
  type Executor,
} from "@sightline/db";
import type { ReachDictionary } from "./reach-encoding.ts";
import { decodeReachDictionary } from "./result-records.ts";

/**
 * An analysis's reach dictionary as the store keeps it. A whole analysis stores its own
 * (deflated JSON, `reachDictionaryJson`); an event step keeps that of the results it was made
 * from, copied as it is, and stores only what it added (`DictionaryAdded`): the large account's
 * dictionary is 60 MB of JSON, which a step neither parses nor deflates again.
 */

/** What event steps added to a kept dictionary, numbered after the kept one's lengths (`base`). */
export interface DictionaryAdded {
  base: { principals: number; capabilities: number; grants: number };
  principals: [string, string][];
  capabilities: string[];
  grants: string[][];
}

/** The dictionary's principals and capabilities (all of them) and how many of each kind it holds. */
export interface DictionaryHead {
  principals: [string, string][];
  capabilities: string[];
  counts: { principals: number; capabilities: number; grants: number };
  added: DictionaryAdded | undefined;
}

const GRANTS = ',"grants":[';

/**
 * The stored JSON's beginning, up to its grant lists (`reachDictionaryJson` writes them last,
 * with their count before them): inflated only as far as that.
 */
async function storedHead(
  stored: Buffer,
): Promise<{ principals: [string, string][]; capabilities: string[]; grantCount?: number }> {
  const inflate = createInflateRaw();
  let text = "";
  const found = new Promise<string>((resolve, reject) => {
    inflate.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      const at = text.indexOf(GRANTS);
      if (at >= 0) {
        inflate.destroy();
        resolve(text.slice(0, at));
      }
    });
    inflate.on("error", reject);
    inflate.on("end", () => reject(new Error("A stored reach dictionary has no grant lists.")));
  });
  inflate.end(stored);
  const head = await found;
  return JSON.parse(`${Buffer.from(head, "latin1").toString("utf8")}}`);
}

function merged(base: ReachDictionary, added: DictionaryAdded | undefined): ReachDictionary {
  if (!added) return base;
  return {
    principals: [...base.principals, ...added.principals],
    capabilities: [...base.capabilities, ...added.capabilities],
    grants: [...base.grants, ...added.grants],
  };
}

/** An execution's whole reach dictionary (the kept one and what steps added); undefined if none. */
export async function readReachDictionary(
  db: Executor,
  executionId: string,
): Promise<ReachDictionary | undefined> {
  const stored = await analysisReachDictionary(db, executionId);
  if (!stored) return undefined;
  const added = (await analysisReachDictionaryAdded(db, executionId)) as DictionaryAdded | null;
  return merged(decodeReachDictionary(stored), added ?? undefined);
}

/** What an event step numbers after: the principals and capabilities, and every kind's count. */
export async function readReachDictionaryHead(
  db: Executor,
  executionId: string,
): Promise<DictionaryHead | undefined> {
  const stored = await analysisReachDictionary(db, executionId);
  if (!stored) return undefined;
  const added = ((await analysisReachDictionaryAdded(db, executionId)) ?? undefined) as
    | DictionaryAdded
    | undefined;
  const head = await storedHead(stored);
  // Dictionaries stored before their grant lists were counted are read whole, once.
  const grantCount = head.grantCount ?? decodeReachDictionary(stored).grants.length;
  const principals = [...head.principals, ...(added?.principals ?? [])];
  const capabilities = [...head.capabilities, ...(added?.capabilities ?? [])];
  return {
    principals,
    capabilities,
    counts: {
      principals: principals.length,
      capabilities: capabilities.length,
      grants: grantCount + (added?.grants.length ?? 0),
    },
    added,
  };
}
