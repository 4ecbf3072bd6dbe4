/**
 * `pnpm demo`: the service (API and worker) against a loopback fake of AWS that serves a small
 * sample account, so that the whole pipeline — assume role, collect, analyse, deliver — can be
 * tried offline. Reports land in the local folder inbox (`<data dir>/inbox`).
 */
import { spawn } from "node:child_process";
import { createServer, type IncomingMessage } from "node:http";
import { fileURLToPath } from "node:url";
import { smallAccount, startFakeAws } from "@sightline/aws-fake";

const fake = await startFakeAws(smallAccount.model);
const ADMINISTRATOR_ACCESS = "arn:aws:iam::aws:policy/AdministratorAccess";
const apiPort = Number(process.env.PORT ?? 8080);

/**
 * The control server on 127.0.0.1:8089 (`SIGHTLINE_DEMO_CONTROL_PORT`):
 * - `POST /make-admin/<user>` attaches AdministratorAccess to a user of the demo account, so
 *   that the next analysis has a change; once a token is set, it also posts the change's
 *   CloudTrail event to Sightline, as the account's EventBridge API destination would.
 *   `POST /revoke-admin/<user>` detaches it again.
 * - `POST /event-token` with `{ "token": "…", "url"?: "…" }` sets the token that the event
 *   source's rotate returned (and where events go: default the API's `/events/aws`).
 * - `POST /alerts` is a webhook alert destination (the demo allows Sightline to reach it over
 *   http); `GET /alerts` lists the alerts it received, newest last (at most 100).
 */
const controlPort = Number(process.env.SIGHTLINE_DEMO_CONTROL_PORT ?? 8089);
const alerts: { receivedAt: string; alertId: string | undefined; body: unknown }[] = [];
const control = createServer(async (request, response) => {
  const answer = (status: number, text: string) =>
    response.writeHead(status, { "content-type": "text/plain" }).end(`${text}\n`);
  if (request.url === "/alerts") {
    if (request.method === "GET") {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(alerts));
      return;
    }
    const body = request.method === "POST" ? await readJson(request, 1 << 20) : undefined;
    if (!body) {
      answer(400, "POST /alerts takes a JSON alert; GET /alerts lists them");
      return;
    }
    const alertId = request.headers["sightline-alert-id"];
    alerts.push({
      receivedAt: new Date().toISOString(),
      alertId: typeof alertId === "string" ? alertId : undefined,
      body,
    });
    alerts.splice(0, Math.max(0, alerts.length - 100));
    answer(200, "received");
    return;
  }
  if (request.method === "POST" && request.url === "/event-token") {
    const body = await readJson(request);
    const token = typeof body?.token === "string" ? body.token : "";
    const url = typeof body?.url === "string" ? body.url : `http://127.0.0.1:${apiPort}/events/aws`;
    if (!/^[\x21-\x7e]{16,512}$/.test(token) || !/^https?:\/\//.test(url)) {
      answer(400, 'POST /event-token {"token": "<the token rotate returned>", "url"?: "http://…"}');
      return;
    }
    fake.control.setEventDestination({ url, token });
    answer(200, `events go to ${url}`);
    return;
  }
  const [, verb, user] =
    /^\/(make-admin|revoke-admin)\/([\w+=,.@-]{1,64})$/.exec(request.url ?? "") ?? [];
  const known = fake.model.authorizationDetails?.UserDetailList?.some((u) => u.UserName === user);
  if (request.method !== "POST" || !user || !known) {
    answer(404, "POST /make-admin/<alice|bob>, /revoke-admin/<alice|bob>, /event-token, /alerts");
    return;
  }
  try {
    if (verb === "make-admin") fake.control.makeAdmin(user);
    else fake.control.detachPolicy("user", user, ADMINISTRATOR_ACCESS);
  } catch (error) {
    answer(409, `${user}: ${(error as Error).message}`);
    return;
  }
  const posts = await fake.control.eventPosts();
  const posted = posts.at(-1);
  const now = verb === "make-admin" ? "is an IAM admin now" : "is no IAM admin now";
  answer(200, `${user} ${now}${posted ? ` (event posted: ${posted.status})` : ""}`);
});
control.listen(controlPort, "127.0.0.1");

async function readJson(
  request: IncomingMessage,
  limit = 4096,
): Promise<Record<string, unknown> | undefined> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of request) {
    size += (part as Buffer).length;
    if (size > limit) return undefined;
    parts.push(part as Buffer);
  }
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(parts).toString("utf8"));
    return typeof parsed === "object" && parsed !== null
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const services = ["STS", "IAM", "S3", "KMS", "ORGANIZATIONS", "EC2"];
const main = fileURLToPath(new URL("../dist/main.js", import.meta.url));
const server = spawn(process.execPath, [main], {
  stdio: "inherit",
  env: {
    ...process.env,
    ...Object.fromEntries(services.map((service) => [`AWS_ENDPOINT_URL_${service}`, fake.url])),
    AWS_ACCESS_KEY_ID: fake.serviceCredentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: fake.serviceCredentials.secretAccessKey,
    SIGHTLINE_S3_FORCE_PATH_STYLE: "true",
    // The control server's /alerts is a webhook destination on loopback: allowed by name.
    SIGHTLINE_ALERT_ALLOWED_HOSTS: [
      process.env.SIGHTLINE_ALERT_ALLOWED_HOSTS,
      `127.0.0.1:${controlPort}`,
    ]
      .filter(Boolean)
      .join(","),
  },
});
process.stderr.write(
  `\nDemo AWS on ${fake.url}: account ${smallAccount.ACCOUNT_ID}, auditor role ${smallAccount.AUDITOR_ROLE_ARN}, external ID ${smallAccount.EXTERNAL_ID}\nChange it: curl -X POST http://127.0.0.1:${controlPort}/make-admin/bob\nSend its events: curl -X POST http://127.0.0.1:${controlPort}/event-token -d '{"token":"<rotate's token>"}'\nA webhook alert destination: http://127.0.0.1:${controlPort}/alerts (GET lists what arrived)\n\n`,
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", async (code) => {
  control.close();
  await fake.close();
  process.exit(code ?? 0);
});
