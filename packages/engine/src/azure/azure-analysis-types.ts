import type { Capability } from "@sightline/capabilities";
import type { GrantSource, PrincipalType } from "../analyze/analysis-types.ts";
import type { AzureAssignment, AzureDeny, AzurePrincipal } from "./azure-model.ts";

/** What the parts of the Azure analysis (analyze-azure.ts) pass one another. */

/** A role assignment as a principal receives it: directly, or through a group it belongs to. */
export interface ReceivedAssignment {
  assignment: AzureAssignment;
  viaGroup: boolean;
}

/** Allowed (2), conditional (1), none (0) per (provider, capability) pair, with the bits behind it. */
export interface Access {
  /** The operations allowed whatever the request, one bit per operation of the catalogue. */
  sure: Uint32Array;
  /** The operations allowed under some request (conditionally or not). */
  any: Uint32Array;
  /** Per (provider, capability) pair: 2 allowed, 1 conditional, 0 none. */
  levels: Uint8Array;
  /** The pairs with a level above 0, ascending. */
  held: Int32Array;
  /** Some deny assignment applies: an assignment's operations may be cut. */
  denied: boolean;
  /** The held pairs by provider index (computed on first use). */
  heldByProvider?: Map<number, number[]>;
  /** The IAM-admin operations held, and whether any is held unconditionally (computed on first use). */
  admin?: { held: number[]; sure: boolean };
}

/** A signature's access at one scope, with the assignments and denies that apply there. */
export interface ScopeAccess {
  access: Access;
  /** What tells the access apart: the assignments' role keys and the denies (see `ScopeEvaluator`). */
  accessKey: string;
  assignments: ReceivedAssignment[];
  denies: AzureDeny[];
  /** Per applicable assignment: the pairs it contributes to (computed on first use). */
  pairsByAssignment?: Uint8Array[];
  /** Resource rows by provider index (computed on first use, see `AzureResourceRows`). */
  rowsByProvider?: Map<number | undefined, ResourceRowTemplate[]>;
}

/** Principals that receive exactly the same assignments and deny assignments, evaluated once. */
export interface Signature {
  key: string;
  /** Assignments reaching the members, and whether each is received through a group. */
  assignments: ReceivedAssignment[];
  denies: AzureDeny[];
  members: AzurePrincipal[];
  /** The members' IDs and types side by side, as the resource rows read them (one per row). */
  memberIds: string[];
  memberTypes: PrincipalType[];
  /**
   * Its assignments' and denies' scopes below the subscription: elsewhere below it the
   * signature inherits the subscription's access (or its nearest such scope's).
   */
  scopesBelowSubscription: Set<string>;
  /** Its access by scope (computed on first use). */
  accessByScope: Map<string, ScopeAccess>;
}

/** A resource summary row of a signature's members, but for the resource and the member. */
export interface ResourceRowTemplate {
  service: string;
  capability: Capability;
  conditional: boolean;
  grantedBy: readonly GrantSource[];
}
