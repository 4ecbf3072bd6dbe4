import { setTimeout as sleep } from "node:timers/promises";
import { classifyAwsError } from "../classify-aws-error.ts";

const BASE_DELAY_MS = 200;
const MAX_DELAY_MS = 20_000;

/**
 * Runs `attempt` until it succeeds, fails for a reason other than throttling or an outage, or
 * `maxAttempts` are spent, with exponential back-off and full jitter. The SDK retries no request
 * whose body is a stream, so a streamed upload retries here, reopening its stream each time.
 */
export async function retryTransient<T>(
  maxAttempts: number,
  attempt: () => Promise<T>,
): Promise<T> {
  for (let made = 1; ; made++) {
    try {
      return await attempt();
    } catch (error) {
      const { kind } = classifyAwsError(error);
      if (made >= maxAttempts || (kind !== "throttled" && kind !== "unavailable")) throw error;
      await sleep(Math.random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** made));
    }
  }
}
