import {
  VENDING_SERVICE_TIMEOUT_MS,
  type VendingServiceCall,
  vendingServiceAnswer,
  vendingServiceRequest,
  vendingServiceUnreachable,
} from "@sightline/domain";

/**
 * POSTs a call to the credential vending service and returns the parsed answer; every failure is
 * `CREDENTIAL_VENDING_FAILED`. The I/O alone: what is sent and how the answer reads are
 * `@sightline/domain`'s (`vendingServiceRequest`, `vendingServiceAnswer`), shared with the
 * AWS collector, which makes the same POST.
 */
export async function callVendingService<T>(call: VendingServiceCall<T>): Promise<T> {
  let response: Response;
  try {
    response = await fetch(call.url, {
      ...vendingServiceRequest(call),
      signal: AbortSignal.timeout(call.timeoutMs ?? VENDING_SERVICE_TIMEOUT_MS),
    });
  } catch (error) {
    throw vendingServiceUnreachable(call.url, error);
  }
  const body: unknown = await response.json().catch(() => undefined);
  return vendingServiceAnswer(call, response.status, body);
}
