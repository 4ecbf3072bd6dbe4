import type { AddressInfo } from "node:net";
import { AppError } from "@sightline/domain";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, describe, expect, it } from "vitest";
import { putAlertDestinations } from "../src/alerts/alert-destinations.ts";
import { enqueueAlerts } from "../src/alerts/enqueue-alerts.ts";
import { accessChange, expectNotLogged, startAlerts, waitFor } from "./support/alerts.ts";

const PASSWORD = "relay-pass-7c1f0e2b9a";
interface Received {
  from: string;
  to: string[];
  mail: ParsedMail;
}
const received: Received[] = [];
/** Recipients the relay refuses for good (550). */
const refused = new Set<string>();
const relay = new SMTPServer({
  disabledCommands: ["STARTTLS"],
  allowInsecureAuth: true,
  logger: false,
  onAuth(auth, _session, callback) {
    if (auth.username === "sightline" && auth.password === PASSWORD)
      callback(null, { user: auth.username });
    else callback(new Error("Invalid username or password"));
  },
  onRcptTo(address, _session, callback) {
    if (refused.has(address.address))
      callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }));
    else callback();
  },
  onData(stream, session, callback) {
    simpleParser(stream).then(
      (mail) => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          mail,
        });
        callback();
      },
      (error: Error) => callback(error),
    );
  },
});
await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
afterAll(() => new Promise<void>((resolve) => relay.close(() => resolve())));
const port = (relay.server.address() as AddressInfo).port;
const smtpUrl = `smtp://sightline:${PASSWORD}@127.0.0.1:${port}`;

const { ctx, lines, ownerWith, settled } = await startAlerts({
  alerts: { smtp: { url: smtpUrl, from: "alerts@sightline.example" } },
});

const changes = [
  accessChange({
    kind: "iam-admin-gained",
    principalArn: "arn:aws:iam::123456789012:role/Deployer",
    principalName: "Deployer",
    serviceName: "IAM",
    accessCapability: "administer-resource",
    resourceArn: "",
    before: "False",
    after: "True",
    grantedBy: ["AdministratorAccess (managed, arn:aws:iam::aws:policy/AdministratorAccess)"],
  }),
  accessChange({ principalName: "<script>", principalArn: "arn:aws:iam::444455556666:role/x" }),
  accessChange({ kind: "confidential-access-gained", confidential: true, reach: "account" }),
];

describe("an email alert", () => {
  it("sends one digest per analysis through the relay: recipients, subject, text and HTML", async () => {
    const recipients = ["soc@acme.example", "ciso@acme.example"];
    const { customerId, stored } = await ownerWith("direct", [
      { name: "soc mail", kind: "email", recipients },
    ]);
    await enqueueAlerts(ctx, {
      customerId,
      provider: "aws",
      accountId: "123456789012",
      executionId: `daily-${customerId}-123456789012-2026-01-31_MAIL`,
      analysisTime: new Date("2026-01-31T07:00:00Z"),
      changes,
    });
    const delivery = await settled(stored[0]?.destinationId as string);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 1 });
    const digest = await waitFor(
      () => received.find((r) => r.mail.headers.get("sightline-alert-id") === delivery.alertId),
      "the digest",
    );
    expect(digest.from).toBe("alerts@sightline.example");
    expect(digest.to).toEqual(recipients);
    expect(digest.mail.subject).toBe("Sightline: 3 access changes in AWS account 123456789012");
    const text = digest.mail.text ?? "";
    expect(text).toContain(`The analysis daily-${customerId}-123456789012-2026-01-31_MAIL`);
    expect(text).toContain("1. iam-admin-gained: Deployer");
    expect(text).toContain("Principal: arn:aws:iam::123456789012:role/Deployer (IAMRole)");
    expect(text).toContain("Service: IAM");
    expect(text).toContain("Capability: administer-resource");
    expect(text).toContain("Change: False → True");
    expect(text).toContain(
      "Granted by: AdministratorAccess (managed, arn:aws:iam::aws:policy/AdministratorAccess)",
    );
    expect(text).toContain("Resource: arn:aws:s3:::payroll");
    expect(text).toContain("3. confidential-access-gained");
    const html = String(digest.mail.html);
    expect(html).toContain(
      '<th align="left">Principal</th><td>arn:aws:iam::123456789012:role/Deployer (IAMRole)</td>',
    );
    expect(html).toContain("no access → read-data");
    expect(html).toContain("&#60;script&#62;");
    expect(html).not.toContain("<script>");
    // The relay's URL and password are in no log line and no attempt.
    expectNotLogged(lines, PASSWORD);
    expectNotLogged(lines, smtpUrl);
  });

  it("fails for good when the relay refuses a recipient (5xx), without its password in the error", async () => {
    refused.add("gone@acme.example");
    const { customerId, stored } = await ownerWith("partner", [
      { name: "gone", kind: "email", recipients: ["gone@acme.example"] },
    ]);
    await enqueueAlerts(ctx, {
      customerId,
      partnerId: customerId.split("-")[0] as string,
      provider: "azure",
      accountId: "0b1f6471-1bf0-4dda-aec3-111122223333",
      executionId: `daily-${customerId}-x-2026-01-31_MAIL`,
      analysisTime: new Date(),
      changes: [accessChange()],
    });
    const delivery = await settled(stored[0]?.destinationId as string);
    expect(delivery).toMatchObject({ status: "failed", attempts: 1 });
    expect(delivery.lastError).toContain("the mail relay refused the digest");
    expect(delivery.lastError).toContain("550");
    expect(delivery.lastError).not.toContain(PASSWORD);
  });

  it("cannot be configured without the operator's relay", async () => {
    const { owner } = await ownerWith("direct", []);
    const without = { ...ctx, alerts: {} };
    const error = await putAlertDestinations(without, owner, {
      destinations: [{ name: "mail", kind: "email", recipients: ["a@acme.example"] }],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).issues).toEqual([
      {
        path: "destinations.0.kind",
        message:
          "email is unavailable: the operator has no mail relay configured (SIGHTLINE_SMTP_URL)",
      },
    ]);
  });
});
