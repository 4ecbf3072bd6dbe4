import type { FaultKind } from "./fake-errors.ts";
import type { FakeService } from "./fake-request.ts";
import type { FakeState, Fault } from "./fake-state.ts";

export function addFault(state: FakeState, fault: Fault): void {
  state.faults.push({ fault, remaining: fault.times ?? Number.POSITIVE_INFINITY });
}

/** The kind of the first fault matching the call, counting the call against it. */
export function takeFault(
  state: FakeState,
  service: FakeService,
  operation: string,
  resource: string | undefined,
): FaultKind | undefined {
  const active = state.faults.find(
    ({ fault, remaining }) =>
      remaining > 0 &&
      (fault.service === undefined || fault.service === service) &&
      (fault.operation === "*" || fault.operation === operation) &&
      (fault.resource === undefined || fault.resource === resource),
  );
  if (!active) return undefined;
  active.remaining--;
  return active.fault.kind;
}
