/**
 * Child process of the graph bench: `GET /partner/{id}` every PROBE_INTERVAL_MS, each request
 * on its own (none waits for the one before), so that a server that stops answering shows as the
 * latency of every request sent meanwhile. Its own event loop does nothing else: the times are
 * the server's. On "stop" it sends back every sample: [sent at (epoch ms), latency (ms)].
 */
const url = process.env.PROBE_URL as string;
const key = process.env.PROBE_KEY as string;
const interval = Number(process.env.PROBE_INTERVAL_MS ?? 10);
const samples: [number, number][] = [];
/** Failed requests by cause: a status, or the connection's error code. */
const failures: Record<string, number> = {};
const fail = (cause: string) => {
  failures[cause] = (failures[cause] ?? 0) + 1;
};

function probe() {
  const sentAt = performance.timeOrigin + performance.now();
  const start = performance.now();
  fetch(url, { headers: { authorization: `Bearer ${key}` } })
    .then(async (res) => {
      await res.arrayBuffer();
      if (res.status !== 200) fail(String(res.status));
      else samples.push([sentAt, performance.now() - start]);
    })
    .catch((error: Error & { cause?: { code?: string } }) =>
      fail(error.cause?.code ?? error.message),
    );
}

const timer = setInterval(probe, interval);
process.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  // Requests still in flight are given a moment; what has not answered by then is a failure.
  setTimeout(() => {
    process.send?.({ samples, failures }, () => process.exit(0));
  }, 2000);
});
process.send?.("ready");
