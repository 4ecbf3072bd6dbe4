/**
 * `pnpm demo`: the service (API and worker) against a loopback fake of AWS that serves a small
 * sample account, so that the whole pipeline — assume role, collect, analyse, deliver — can be
 * tried offline. Reports land in the local folder inbox (`<data dir>/inbox`).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { smallAccount, startFakeAws } from "@sightline/aws/testing";

const fake = await startFakeAws(smallAccount.model);
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
  `\nDemo AWS on ${fake.url}: account ${smallAccount.ACCOUNT_ID}, auditor role ${smallAccount.AUDITOR_ROLE_ARN}, external ID ${smallAccount.EXTERNAL_ID}\n\n`,
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", async (code) => {
  await fake.close();
  process.exit(code ?? 0);
});
