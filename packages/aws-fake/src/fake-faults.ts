import type { AlterationKind, DelayKind, FaultKind } from "./fake-errors.ts";
import type { FakeService } from "./fake-request.ts";
import type { FakeState, Fault } from "./fake-state.ts";

/** The service and operations each alteration applies to; other calls never match such a fault. */
const ALTERABLE: Record<AlterationKind, { service: FakeService; operations: ReadonlySet<string> }> =
  {
    "corrupt-body": {
      service: "s3",
      operations: new Set(["PutObject", "UploadPart", "CopyObject"]),
    },
    "no-checksum": {
      service: "s3",
      operations: new Set(["PutObject", "UploadPart", "CopyObject", "CompleteMultipartUpload"]),
    },
    "failed-findings": { service: "securityhub", operations: new Set(["BatchImportFindings"]) },
  };

export function isAlteration(kind: FaultKind): kind is AlterationKind {
  return kind in ALTERABLE;
}

export function isDelay(kind: FaultKind): kind is DelayKind {
  return kind === "delay";
}

export function addFault(state: FakeState, fault: Fault): void {
  state.faults.push({
    fault,
    remaining: fault.times ?? Number.POSITIVE_INFINITY,
    toPass: fault.after ?? 0,
  });
}

/**
 * The kind of the first fault matching the call, counting the call against it. A fault with
 * calls still to let pass (`after`) counts this one as passed and lets later faults match.
 */
export function takeFault(
  state: FakeState,
  service: FakeService,
  operation: string,
  resource: string | undefined,
): FaultKind | undefined {
  return takeMatchingFault(state, service, operation, resource)?.kind;
}

/** As `takeFault`, answering the whole fault (a delay's length). */
export function takeMatchingFault(
  state: FakeState,
  service: FakeService,
  operation: string,
  resource: string | undefined,
): Fault | undefined {
  for (const active of state.faults) {
    const { fault } = active;
    const matches =
      active.remaining > 0 &&
      (fault.service === undefined || fault.service === service) &&
      (fault.operation === "*" || fault.operation === operation) &&
      (fault.resource === undefined || fault.resource === resource) &&
      (!isAlteration(fault.kind) ||
        (ALTERABLE[fault.kind].service === service &&
          ALTERABLE[fault.kind].operations.has(operation)));
    if (!matches) continue;
    if (active.toPass > 0) {
      active.toPass--;
      continue;
    }
    active.remaining--;
    return fault;
  }
  return undefined;
}
