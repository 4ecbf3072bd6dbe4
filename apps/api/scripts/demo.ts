/**
 * `pnpm demo`: the service (API and worker) against a loopback fake of AWS that serves a small
 * sample account, so that the whole pipeline — assume role, collect, analyse, deliver — can be
 * tried offline. Reports land in the local folder inbox (`<data dir>/inbox`).
 */
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { type FakeAccountModel, smallAccount, startFakeAws } from "@sightline/aws-fake";

// A copy the demo may change, as an administrator would change the account between analyses.
const model: { -readonly [K in keyof FakeAccountModel]: FakeAccountModel[K] } = {
  ...smallAccount.model,
};
const fake = await startFakeAws(model);

/**
 * `POST /make-admin/<user>` on 127.0.0.1:8089 (`SIGHTLINE_DEMO_CONTROL_PORT`): attaches
 * AdministratorAccess to a user of the demo account, so that the next analysis has a change.
 */
const controlPort = Number(process.env.SIGHTLINE_DEMO_CONTROL_PORT ?? 8089);
const control = createServer((request, response) => {
  const user = /^\/make-admin\/([\w+=,.@-]{1,64})$/.exec(request.url ?? "")?.[1];
  const changed = user ? smallAccount.withAdministratorAccess(model, user) : undefined;
  if (request.method !== "POST" || !changed) {
    response.writeHead(404, { "content-type": "text/plain" }).end("POST /make-admin/<alice|bob>\n");
    return;
  }
  model.authorizationDetails = changed;
  response.writeHead(200, { "content-type": "text/plain" }).end(`${user} is an IAM admin now\n`);
});
control.listen(controlPort, "127.0.0.1");
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
  },
});
process.stderr.write(
  `\nDemo AWS on ${fake.url}: account ${smallAccount.ACCOUNT_ID}, auditor role ${smallAccount.AUDITOR_ROLE_ARN}, external ID ${smallAccount.EXTERNAL_ID}\nChange it: curl -X POST http://127.0.0.1:${controlPort}/make-admin/bob\n\n`,
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", async (code) => {
  control.close();
  await fake.close();
  process.exit(code ?? 0);
});
