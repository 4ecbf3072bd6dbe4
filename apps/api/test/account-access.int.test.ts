import { smallAccount } from "@sightline/aws-fake";
import {
  Caller,
  PartnerCustomerList,
  PrincipalAccess,
  PrincipalList,
  ResourceList,
  WhoCan,
} from "@sightline/domain";
import { beforeAll, describe, expect, it } from "vitest";
import { startE2e } from "./e2e-pipeline.ts";

const { h, accountId, configure, triggerAndWait } = await startE2e();
const ARN = (kind: string, name: string) => `arn:aws:iam::${accountId}:${kind}/${name}`;

let partner: Awaited<ReturnType<typeof configure>>;
let executionId: string;

beforeAll(async () => {
  partner = await configure(false);
  const execution = await triggerAndWait(partner);
  expect(execution.status).toBe("succeeded");
  executionId = execution.executionId;
});

const get = (path: string, key = partner.key) => h.call("GET", `${partner.base}${path}`, { key });

describe("an account's access, from its newest analysis", () => {
  it("lists the principals in ARN order, IAM admins with what makes them admins", async () => {
    const res = await get("/principals");
    expect(res.status).toBe(200);
    const list = PrincipalList.parse(res.json);
    expect(list.executionId).toBe(executionId);
    const arns = list.principals.map((p) => p.principalArn);
    expect(arns).toEqual(expect.arrayContaining([ARN("user", "alice"), ARN("role", "Deployer")]));
    expect(arns).toEqual([...arns].sort());
    const deployer = list.principals.find((p) => p.principalArn === ARN("role", "Deployer"));
    expect(deployer).toMatchObject({ iamAdmin: "yes", principalType: "IAMRole" });
    expect(deployer?.iamAdminGrantedBy.join(" ")).toContain("AdministratorAccess");

    const admins = PrincipalList.parse((await get("/principals?iamAdmin=yes")).json).principals;
    expect(admins.map((p) => p.principalArn)).toContain(ARN("role", "Deployer"));
    expect(admins.length).toBeLessThan(list.principals.length);
    for (const admin of admins) expect(admin.iamAdmin).toBe("yes");

    const found = PrincipalList.parse((await get("/principals?q=ALIC")).json).principals;
    expect(found.map((p) => p.principalArn)).toEqual([ARN("user", "alice")]);
    // LIKE's own characters are text.
    expect(PrincipalList.parse((await get("/principals?q=%25")).json).principals).toEqual([]);
  });

  it("pages with an opaque cursor to the same list", async () => {
    const all = PrincipalList.parse((await get("/principals")).json).principals;
    expect(all.length).toBeGreaterThan(2);
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await get(`/principals?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      const page = PrincipalList.parse(res.json);
      expect(page.principals.length).toBeLessThanOrEqual(2);
      paged.push(...page.principals.map((p) => p.principalArn));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all.map((p) => p.principalArn));
  });

  it("says what one principal can do and which policies grant it", async () => {
    const res = await get(
      `/principal-access?principalArn=${encodeURIComponent(ARN("user", "alice"))}`,
    );
    expect(res.status).toBe(200);
    const access = PrincipalAccess.parse(res.json);
    expect(access.principal.principalArn).toBe(ARN("user", "alice"));
    const reads = access.access.filter((a) => a.service === "S3" && a.capability === "read-data");
    expect(reads).not.toHaveLength(0);
    expect(reads.flatMap((a) => a.grantedBy).join(" ")).toMatch(/read-reports|ReadOnlyAccess/);
  });

  it("says who can reach a bucket, all capabilities or one", async () => {
    const bucket = "arn:aws:s3:::reports";
    const all = WhoCan.parse((await get(`/who-can?resourceArn=${bucket}`)).json);
    expect(all.resource).toMatchObject({ resourceArn: bucket, resourceName: "reports" });
    expect(all.principals).not.toHaveLength(0);
    const deployer = all.principals.filter((p) => p.principal === ARN("role", "Deployer"));
    expect(deployer.map((p) => p.capability)).toContain("delete-data");
    const one = WhoCan.parse(
      (await get(`/who-can?resourceArn=${bucket}&capability=read-data`)).json,
    );
    expect(one.principals).not.toHaveLength(0);
    for (const holder of one.principals) expect(holder.capability).toBe("read-data");
    expect(one.principals.length).toBeLessThan(all.principals.length);
  });

  it("lists the resources to pick from, filtered and paged", async () => {
    const res = await get("/resources");
    expect(res.status).toBe(200);
    const list = ResourceList.parse(res.json);
    expect(list.executionId).toBe(executionId);
    const arns = list.resources.map((r) => r.resourceArn);
    expect(arns).toContain("arn:aws:s3:::reports");
    expect(arns).toEqual([...arns].sort());
    const found = ResourceList.parse((await get("/resources?q=REPORTS")).json).resources;
    expect(found.map((r) => r.resourceArn)).toContain("arn:aws:s3:::reports");
    for (const r of found) expect(r.resourceArn.toLowerCase()).toContain("reports");
    expect(found.length).toBeLessThan(list.resources.length);
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = ResourceList.parse(
        (await get(`/resources?limit=3${cursor ? `&cursor=${cursor}` : ""}`)).json,
      );
      expect(page.resources.length).toBeLessThanOrEqual(3);
      paged.push(...page.resources.map((r) => r.resourceArn));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(arns);
    expect((await get("/resources?q=")).status).toBe(400);
  });

  it("tells a key whom it acts for, and a partner its customers", async () => {
    const me = await h.call("GET", "/whoami", { key: partner.key });
    expect(me.status).toBe(200);
    expect(Caller.parse(me.json)).toEqual({ kind: "partner", partnerId: partner.partnerId });
    expect(JSON.stringify(me.json)).not.toContain(partner.key);
    const customers = await h.call("GET", `/partner/${partner.partnerId}/customer`, {
      key: partner.key,
    });
    expect(customers.status).toBe(200);
    expect(PartnerCustomerList.parse(customers.json).customers).toEqual([
      {
        partnerCustomerId: partner.tenant,
        customerId: partner.customerId,
        subscriptionPlanName: "Team",
      },
    ]);
    const other = await configure(false);
    const refused = await h.call("GET", `/partner/${partner.partnerId}/customer`, {
      key: other.key,
    });
    expect(refused.status).toBe(403);
  });

  it("refuses bad input naming the field, and names what it does not know", async () => {
    const bad = await get("/who-can?resourceArn=arn:aws:s3:::reports&capability=fly");
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain("capability");
    const missing = await get("/principal-access");
    expect(missing.status).toBe(400);
    expect(missing.json.message).toContain("principalArn");
    expect((await get("/principals?limit=0")).status).toBe(400);
    expect((await get("/principals?cursor=bm90LWpzb24")).status).toBe(400);
    const unknown = await get(`/principal-access?principalArn=${ARN("user", "nobody")}`);
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toContain("principalArn");
    const gone = await get("/who-can?resourceArn=arn:aws:s3:::no-such-bucket");
    expect(gone.status).toBe(404);
    expect(gone.json.message).toContain("resourceArn");
  });

  it("answers 409 for an account not analysed yet", async () => {
    const other = await configure(false);
    const res = await h.call("GET", `${other.base}/principals`, { key: other.key });
    expect(res.status).toBe(409);
    expect(res.json.message).toContain(accountId);
  });

  it("never shows another tenant's analysis", async () => {
    const other = await configure(false);
    // Another partner's key on this partner's account: refused.
    for (const path of ["/principals", "/resources", `/who-can?resourceArn=arn:aws:s3:::reports`]) {
      const res = await get(path, other.key);
      expect(res.status).toBe(403);
    }
    // The same account ID under the other partner's own customer: not this partner's results.
    const own = await h.call("GET", `${other.base}/principals`, { key: other.key });
    expect(own.status).toBe(409);
    expect(smallAccount.ACCOUNT_ID).toBe(accountId);
  });
});
