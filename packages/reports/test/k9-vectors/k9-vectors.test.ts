import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { K9_COLUMN_COUNT, REPORT_COLUMNS } from "../../src/index.ts";
import {
  ATHENA_CSV_FILE_TYPES,
  ATHENA_LOCATIONS,
  athenaCsvKey,
  athenaParquetKey,
  DASHBOARD_QUERIES,
  DATADOG_CSV_HEADERS,
  DATADOG_FILE_RULE,
  DATADOG_FILE_RULE_CORRECTED,
  dashboardQuery,
  datadogSearch,
  expectK9Compatible,
  expectK9Layout,
  K9_ANALYSIS_TIME,
  K9_BOOLEAN,
  K9_CLI_ANALYSIS_TIME,
  K9_CLI_FIELD_COUNTS,
  K9_COLUMNS,
  K9_REPORT_TYPES,
  K9_SAMPLE_KEYS,
  K9_SAMPLE_PYTHON_TAGS_ROW,
  K9_STATE,
  K9_TIME,
  k9CliLoadLocalDb,
  k9CliPick,
  k9CliSyncSelects,
  k9LayoutViolations,
  k9SampleCsv,
  k9Violations,
  SPLUNK_SOURCE_GLOBS,
  SPLUNK_STRPTIME,
  SPLUNK_STRPTIME_COLUMNS,
  SPLUNK_TIME_FORMAT,
  splunkGlob,
  splunkKata2UnusedPrincipals,
  splunkKata3StaleCredentials,
  splunkRelativeDays,
  splunkStagedFiles,
  splunkStrptime,
} from "./index.ts";

const PARTNER = "P123456-000000000001";
const rowsOf = (type: (typeof K9_REPORT_TYPES)[number]) =>
  (parse(k9SampleCsv(type)) as string[][]).slice(1);
const cells = (type: (typeof K9_REPORT_TYPES)[number], column: string) => {
  const i = K9_COLUMNS[type].indexOf(column);
  return rowsOf(type).map((row) => row[i] as string);
};

describe("k9's own sample reports meet the contract", () => {
  for (const type of K9_REPORT_TYPES) {
    it(`${type}, under its latest key`, () => {
      expectK9Compatible({ type, csvText: k9SampleCsv(type), key: K9_SAMPLE_KEYS.latest[type] });
    });
  }

  it("under k9's dated keys and its Athena CSV key", () => {
    for (const key of K9_SAMPLE_KEYS.dated) {
      const type = K9_REPORT_TYPES.find((t) => key.includes(`/${t}.`));
      expect(type).toBeDefined();
      if (type) expectK9Compatible({ type, csvText: k9SampleCsv(type), key });
    }
    expectK9Compatible({
      type: "principal-access-summaries",
      csvText: k9SampleCsv("principal-access-summaries"),
      key: K9_SAMPLE_KEYS.athenaCsv,
    });
  });

  it("with CRLF line ends too (Splunk, Datadog and k9-cli all split on either)", () => {
    const csvText = k9SampleCsv("principals").replaceAll("\n", "\r\n");
    expectK9Compatible({ type: "principals", csvText, key: K9_SAMPLE_KEYS.latest.principals });
  });

  it("but not k9's Python-dict tags row, which k9's own json filter cannot read", () => {
    const csvText = k9SampleCsv("resources", [K9_SAMPLE_PYTHON_TAGS_ROW]);
    expect(
      k9Violations({ type: "resources", csvText, key: K9_SAMPLE_KEYS.latest.resources }),
    ).toEqual([expect.stringMatching(/^row 2 resource_tags .*not JSON/)]);
  });
});

describe("what the contract rejects", () => {
  // Sightline's report format before issue 20: JS booleans, ISO-8601 times, `Enabled`, an extra column.
  const header = [...K9_COLUMNS.principals, "principal_account_id"].join(",");
  const row = [
    "2024-12-10T07:14:19.766Z",
    "ci",
    "arn:aws:iam::139710491120:user/ci",
    "IAMUser",
    "true",
    "2024-12-10T05:03:00.000Z",
    "",
    "",
    "",
    '"{""team"":""=cmd""}"',
    "2024-12-01T00:00:00.000Z",
    "2024-01-01T00:00:00.000Z",
    "Enabled",
    "",
    "",
    "",
    "",
    "",
    "",
    "139710491120",
  ].join(",");
  const violations = k9Violations({
    type: "principals",
    csvText: `${header}\r\n${row}\r\n`,
    key: `customers/${PARTNER}/reports/aws/139710491120/latest/principals.latest.csv`,
  });

  it("names each break, k9's columns checked even in a row of the wrong length", () => {
    expect(violations).toEqual([
      expect.stringMatching(/^header is not k9's/),
      "row 2: 20 fields, k9-cli wants 19",
      expect.stringMatching(/^row 2 analysis_time/),
      expect.stringMatching(/^row 2 principal_is_iam_admin "true"/),
      expect.stringMatching(/^row 2 principal_last_used/),
      expect.stringMatching(/^row 2 password_last_used/),
      expect.stringMatching(/^row 2 password_last_rotated/),
      expect.stringMatching(/^row 2 password_state "Enabled"/),
    ]);
  });

  it("cell by cell, with the integration that fails", () => {
    const cellsOnly = k9Violations({
      type: "principals",
      csvText: `${K9_COLUMNS.principals.join(",")}\n${row.split(",").slice(0, 19).join(",")}\n`,
      key: K9_SAMPLE_KEYS.latest.principals,
    });
    expect(cellsOnly).toEqual([
      'row 2 analysis_time "2024-12-10T07:14:19.766Z": not k9\'s YYYY-MM-DDTHH:MM:SS.ffffff+00:00 (Splunk TIME_FORMAT fails)',
      'row 2 principal_is_iam_admin "true": not True/False (Datadog searches True)',
      'row 2 principal_last_used "2024-12-10T05:03:00.000Z": not k9\'s YYYY-MM-DD HH:MM:SS+00:00 or empty (Splunk strptime %Y-%m-%d %H:%M:%S fails)',
      'row 2 password_last_used "2024-12-01T00:00:00.000Z": not k9\'s YYYY-MM-DD HH:MM:SS+00:00 or empty (Splunk strptime %Y-%m-%d %H:%M:%S fails)',
      'row 2 password_last_rotated "2024-01-01T00:00:00.000Z": not k9\'s YYYY-MM-DD HH:MM:SS+00:00 or empty (Splunk strptime %Y-%m-%d %H:%M:%S fails)',
      'row 2 password_state "Enabled": not Active/Inactive/empty',
    ]);
  });

  it("formula escaping, a byte-order mark, a key of no k9 layout", () => {
    const escaped = k9SampleCsv("resource-access-summaries").replace(
      "KMS,alias/k9-cdk-integration-test",
      "KMS,'=alias",
    );
    expect(
      k9Violations({
        type: "resource-access-summaries",
        csvText: `\uFEFF${escaped}`,
        key: "customers/C10001/reports/aws/139710491120/sightline/resource-access-summaries.latest.csv",
      }),
    ).toEqual([
      "key customers/C10001/reports/aws/139710491120/sightline/resource-access-summaries.latest.csv is none of k9's keys for resource-access-summaries (dated, latest/ or hive CSV)",
      "starts with a byte-order mark",
      expect.stringMatching(/^header is not k9's/),
      `row 2 resource_name "'=alias": formula-escaped (k9 escapes nothing)`,
    ]);
  });
});

describe("Datadog (k9-datadog-viz)", () => {
  it("k9's file rule reads k9's sample keys (pipeline.json:13-15)", () => {
    for (const [type, key] of Object.entries(K9_SAMPLE_KEYS.latest))
      expect(DATADOG_FILE_RULE.exec(key)?.groups).toEqual({
        customerId: "C10001",
        accountId: "139710491120",
        reportType: type,
        fileType: "csv",
      });
  });

  it("k9's rule misses a partner's customer id; the corrected rule reads it and C12345", () => {
    const partnerKey = `customers/${PARTNER}/reports/aws/210987654321/latest/principals.latest.csv`;
    expect(DATADOG_FILE_RULE.test(partnerKey)).toBe(false);
    expect(DATADOG_FILE_RULE_CORRECTED.exec(partnerKey)?.groups?.customerId).toBe(PARTNER);
    const k9Key = "customers/C12345/reports/aws/210987654321/latest/principals.latest.csv";
    expect(DATADOG_FILE_RULE_CORRECTED.exec(k9Key)?.groups?.reportType).toBe("principals");
  });

  it("k9's rule feeds a .jsonl to the CSV parser and takes the manifest for a report", () => {
    const prefix = "customers/C10001/reports/aws/139710491120/latest";
    expect(DATADOG_FILE_RULE.exec(`${prefix}/principals.latest.jsonl`)?.groups).toMatchObject({
      reportType: "principals",
      fileType: "jsonl",
    });
    expect(DATADOG_FILE_RULE.exec(`${prefix}/manifest.latest.json`)?.groups?.reportType).toBe(
      "manifest",
    );
    expect(DATADOG_FILE_RULE_CORRECTED.test(`${prefix}/principals.latest.jsonl`)).toBe(false);
    expect(DATADOG_FILE_RULE_CORRECTED.test(`${prefix}/manifest.latest.json`)).toBe(false);
  });

  it("only latest/ keys are parsed, not dated ones nor a sightline/ folder", () => {
    for (const key of [
      ...K9_SAMPLE_KEYS.dated,
      "customers/C10001/reports/aws/139710491120/sightline/latest/principals.latest.csv",
    ]) {
      expect(DATADOG_FILE_RULE.test(key)).toBe(false);
      expect(DATADOG_FILE_RULE_CORRECTED.test(key)).toBe(false);
    }
  });

  it("its CSV headers are k9-cli's field counts and Sightline's leading columns", () => {
    for (const type of K9_REPORT_TYPES) {
      expect(DATADOG_CSV_HEADERS[type]).toHaveLength(K9_CLI_FIELD_COUNTS[type]);
      expect(K9_COLUMN_COUNT[type]).toBe(K9_CLI_FIELD_COUNTS[type]);
      expect(REPORT_COLUMNS[type].slice(0, K9_COLUMN_COUNT[type]).map((c) => c.name)).toEqual(
        DATADOG_CSV_HEADERS[type],
      );
    }
  });

  it("every value the dashboard searches is one the contract allows, and k9 writes True/Active", () => {
    const allowed: Record<string, RegExp> = {
      principal_is_iam_admin: K9_BOOLEAN,
      password_state: K9_STATE,
      access_key_1_state: K9_STATE,
      access_key_2_state: K9_STATE,
    };
    for (const query of DASHBOARD_QUERIES) {
      expect(K9_COLUMNS[query.report]).toContain(query.column);
      for (const value of query.values) expect(value).toMatch(allowed[query.column] ?? /./);
    }
    expect(cells("principals", "principal_is_iam_admin")).toEqual(["True", "True"]);
    expect(cells("principals", "access_key_1_state")).toEqual(["Active", ""]);
    expect(K9_BOOLEAN.test("true")).toBe(false);
    expect(K9_STATE.test("Enabled")).toBe(false);
  });
});

describe("Splunk (k9-splunk-viz)", () => {
  it("TIME_FORMAT reads k9's analysis_time, not milliseconds with Z", () => {
    for (const type of K9_REPORT_TYPES) {
      expect(cells(type, "analysis_time"), type).not.toHaveLength(0);
      for (const value of cells(type, "analysis_time")) expect(value).toMatch(SPLUNK_TIME_FORMAT);
    }
    expect(SPLUNK_TIME_FORMAT.test("2024-12-10T05:03:36.766Z")).toBe(false);
    expect(SPLUNK_TIME_FORMAT.test("2024-12-10T05:03:36.766000Z")).toBe(false);
  });

  it("kata 2 and 3's strptime reads k9's times, not ISO-8601 with T", () => {
    for (const column of SPLUNK_STRPTIME_COLUMNS)
      for (const value of cells("principals", column))
        if (value !== "") expect(value).toMatch(SPLUNK_STRPTIME);
    expect(cells("principals", "access_key_1_last_rotated")[0]).toBe("2021-03-08 21:03:09+00:00");
    expect(SPLUNK_STRPTIME.test("2024-12-10T05:03:00.000Z")).toBe(false);
  });

  it("a credential that does not exist is empty: no N/A for kata 2 and 3", () => {
    const [user, role] = rowsOf("principals");
    const at = (column: string) => K9_COLUMNS.principals.indexOf(column);
    for (const column of ["password_last_used", "password_last_rotated", "password_state"])
      expect(user?.[at(column)]).toBe("");
    for (const column of K9_COLUMNS.principals.slice(10)) expect(role?.[at(column)]).toBe("");
  });

  it("each staged k9 report is found by its own source globs only", () => {
    const staged = splunkStagedFiles(Object.values(K9_SAMPLE_KEYS.latest));
    expect(staged.map((s) => s.staged)).toContain("139710491120_latest_principals.latest.csv");
    for (const { key, staged: name } of staged) {
      const type = K9_REPORT_TYPES.find((t) => key.endsWith(`/${t}.latest.csv`));
      const reports = SPLUNK_SOURCE_GLOBS.filter((g) => splunkGlob(g.glob).test(name)).map(
        (g) => g.report,
      );
      expect(reports.length).toBeGreaterThan(0);
      expect(new Set(reports)).toEqual(new Set([type]));
    }
  });
});

describe("the searches, run on k9's own rows", () => {
  const principals = k9SampleCsv("principals");
  const USER = "arn:aws:iam::139710491120:user/ci";
  const ROLE =
    "arn:aws:iam::139710491120:role/aws-reserved/sso.amazonaws.com/AWSReservedSSO_AdministratorAccess_437be9d757c9ea2f";
  // The same rows as Sightline wrote them before k9's value formats: `true`, ISO-8601 times.
  const sightlineBefore = principals
    .replaceAll(",True,", ",true,")
    .replace(/(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})\+00:00/g, "$1T$2.000Z");

  it("Datadog's IAM-admin widgets find both admins; `true` finds none", () => {
    const admins = dashboardQuery("principals", "principal_is_iam_admin");
    expect(datadogSearch(admins, principals).map((e) => e.principal_arn)).toEqual([USER, ROLE]);
    expect(datadogSearch(admins, sightlineBefore)).toEqual([]);
    const keys = dashboardQuery("principals", "access_key_2_state");
    expect(datadogSearch(keys, principals)).toEqual([]);
  });

  it("Splunk reads times as strptime does, and snaps relative_time to the day", () => {
    expect(splunkStrptime("2022-12-10 05:03:00+00:00")).toBe(Date.UTC(2022, 11, 10, 5, 3) / 1000);
    expect(splunkStrptime("2022-12-10T05:03:00.000Z")).toBeNull();
    expect(splunkStrptime("")).toBeNull();
    expect(splunkRelativeDays(new Date("2023-03-10T17:00:00Z"), 90)).toBe(
      Date.UTC(2022, 11, 10) / 1000,
    );
  });

  it("kata 2 finds the principal last used more than 90 days ago, and the one never used", () => {
    // The user was last used 2022-12-10 05:03; the role 2022-07-21.
    expect(splunkKata2UnusedPrincipals(principals, new Date("2022-12-12T00:00:00Z"))).toEqual([
      ROLE,
    ]);
    expect(splunkKata2UnusedPrincipals(principals, new Date("2023-03-11T00:00:00Z"))).toEqual([
      ROLE,
      USER,
    ]);
    // An ISO time gives null: neither never used nor old, so kata 2 misses the old role.
    expect(splunkKata2UnusedPrincipals(sightlineBefore, new Date("2022-12-12T00:00:00Z"))).toEqual(
      [],
    );
    const never = principals.replace(",True,2022-07-21 15:30:39+00:00,", ",True,,");
    expect(splunkKata2UnusedPrincipals(never, new Date("2022-07-22T00:00:00Z"))).toEqual([ROLE]);
  });

  it("kata 3 finds the access key rotated more than 61 days ago; ISO times hide it", () => {
    // ci's key 1 was rotated 2021-03-08 21:03:09.
    expect(splunkKata3StaleCredentials(principals, new Date("2021-05-08T00:00:00Z"))).toEqual([]);
    expect(splunkKata3StaleCredentials(principals, new Date("2021-05-09T00:00:00Z"))).toEqual([
      USER,
    ]);
    expect(splunkKata3StaleCredentials(sightlineBefore, new Date("2022-12-12T00:00:00Z"))).toEqual(
      [],
    );
  });
});

describe("k9-cli", () => {
  it("reads k9's analysis_time (and is lenient: Z would do)", () => {
    for (const type of K9_REPORT_TYPES) {
      expect(cells(type, "analysis_time"), type).not.toHaveLength(0);
      for (const value of cells(type, "analysis_time")) {
        expect(value).toMatch(K9_CLI_ANALYSIS_TIME);
        expect(value).toMatch(K9_ANALYSIS_TIME);
      }
    }
    expect(K9_CLI_ANALYSIS_TIME.test("2024-12-10T05:03:36.766Z")).toBe(true);
    expect(K9_TIME.test("2022-12-10 05:03:00+00:00")).toBe(true);
  });

  const dated = "customers/C10001/reports/aws/139710491120/2024/12";
  const account = { customerId: "C10001", accountId: "139710491120" };

  it("k9 sync fetches dated CSVs only", () => {
    for (const key of K9_SAMPLE_KEYS.dated) expect(k9CliSyncSelects(key)).toBe(true);
    for (const key of [
      ...Object.values(K9_SAMPLE_KEYS.latest),
      `${dated}/principals.2024-12-10-0503.jsonl`,
      `${dated}/principals.2024-12-10-0503.csv.gz`,
      `${dated}/principals.20241210T0503.csv`,
    ])
      expect(k9CliSyncSelects(key)).toBe(false);
    expect(k9CliSyncSelects(`${dated}/resource-access-audit.2024-12-10-0503.xlsx`, true)).toBe(
      true,
    );
  });

  it("its walk keeps the last name of a day and kind: a .jsonl beside the .csv wins", () => {
    const csv = `${dated}/principals.2024-12-10-0503.csv`;
    const jsonl = `${dated}/principals.2024-12-10-0503.jsonl`;
    expect(k9CliPick([jsonl, csv], account)).toEqual({ files: { principals: jsonl } });
    expect(k9CliPick([csv], account)).toEqual({ files: { principals: csv } });
    const later = `${dated}/principals.2024-12-10-0900.csv`;
    expect(k9CliPick([later, jsonl, csv], account)).toEqual({ files: { principals: later } });
  });

  it("its walk takes the latest day, or the analysis date, and skips latest/", () => {
    const files = [
      `${dated}/principals.2024-12-09-0503.csv`,
      `${dated}/principals.2024-12-10-0503.csv`,
      ...Object.values(K9_SAMPLE_KEYS.latest),
    ];
    expect(k9CliPick(files, account)).toEqual({ files: { principals: files[1] } });
    expect(k9CliPick(files, { ...account, analysisDate: "2024-12-09" })).toEqual({
      files: { principals: files[0] },
    });
  });

  it("its walk fails on any 8-segment file not named <kind>.<YYYY-MM-DD-HHMM>.<ext>", () => {
    for (const name of ["principals.csv", "principals.2024-12-10-0503.csv.gz", "p.20241210.csv"])
      expect(k9CliLoadLocalDb([`${dated}/${name}`])).toHaveProperty("error");
    // Other depths are skipped, whatever their name.
    expect(
      k9CliLoadLocalDb([
        "customers/C10001/reports/aws/139710491120/sightline/runs/2024/x.json",
        "customers/C10001/reports/aws/139710491120/manifest.json",
      ]),
    ).toEqual({ db: new Map() });
  });
});

describe("Athena (k9's hive layout)", () => {
  it("builds k9's documented example keys", () => {
    const parts = { customerId: "C10001", accountId: "123456789012" };
    expect(athenaCsvKey({ ...parts, type: "principal-access-summaries" })).toBe(
      K9_SAMPLE_KEYS.athenaCsv,
    );
    expect(
      athenaParquetKey({
        customerId: "C123456",
        accountId: "123456789012",
        type: "principal-access-summaries",
      }),
    ).toBe(
      "hive/parquet/pas/customer_id=C123456/csp=aws/account_id=123456789012/principal-access-summaries.latest.parquet",
    );
  });

  it("every table's key pattern takes its own keys only, partner ids included", () => {
    for (const type of K9_REPORT_TYPES)
      for (const other of K9_REPORT_TYPES) {
        const parts = { customerId: PARTNER, accountId: "210987654321", type: other };
        expect(ATHENA_LOCATIONS[type].csv.key.test(athenaCsvKey(parts))).toBe(type === other);
        expect(ATHENA_LOCATIONS[type].parquet.key.test(athenaParquetKey(parts))).toBe(
          type === other,
        );
        expect(athenaParquetKey(parts).startsWith(ATHENA_LOCATIONS[other].parquet.location)).toBe(
          true,
        );
      }
    const sightlineToday =
      "hive/principals/customer_id=C10001/account_id=139710491120/dt=2024-12-10/principals.parquet";
    for (const type of K9_REPORT_TYPES) {
      expect(ATHENA_LOCATIONS[type].csv.key.test(sightlineToday)).toBe(false);
      expect(ATHENA_LOCATIONS[type].parquet.key.test(sightlineToday)).toBe(false);
    }
  });
});

describe("the folder layout", () => {
  const account = "customers/C10001/reports/aws/139710491120";
  const k9Listing = [
    ...Object.values(K9_SAMPLE_KEYS.latest),
    ...K9_REPORT_TYPES.map((t) => `${account}/2024/12/${t}.2024-12-10-0503.csv`),
    `${account}/2024/12/resource-access-audit.2024-12-10-0503.xlsx`,
    ...K9_REPORT_TYPES.flatMap((type) => {
      const parts = { customerId: "C10001", accountId: "139710491120", type };
      return [athenaCsvKey(parts), athenaParquetKey(parts)];
    }),
  ];

  it("k9's own listing breaks nothing", () => {
    expectK9Layout(k9Listing);
  });

  it("objects of Sightline's own in k9's folders each break a consumer", () => {
    const extra = [
      `${account}/latest/principals.latest.jsonl`,
      `${account}/latest/manifest.latest.json`,
      `${account}/2024/12/principals.2024-12-10-0503.jsonl`,
      `${account}/sightline/2024/principals.2024-12-10-0503.jsonl`,
      `${account}/sightline/2024/principals-extended.2024-12-10-0503.csv`,
      "hive/parquet/pas/customer_id=C10001/csp=aws/account_id=139710491120/manifest.json",
    ];
    const problems = k9LayoutViolations([...k9Listing, ...extra]);
    for (const key of extra) expect(problems.some((p) => p.includes(key))).toBe(true);
    expect(problems).toContain(
      `k9-cli reads ${account}/sightline/2024/principals.2024-12-10-0503.jsonl as the principals report`,
    );
    expect(problems).toContain(
      `${account}/sightline/2024/principals-extended.2024-12-10-0503.csv: k9 sync would fetch it`,
    );
  });

  it("a walk-breaking name anywhere at k9's depth fails k9-cli", () => {
    expect(k9LayoutViolations([...k9Listing, `${account}/sightline/latest/manifest.json`])).toEqual(
      [expect.stringMatching(/^k9-cli's folder walk fails: invalid report filename/)],
    );
  });
});

describe("docs/integrations.md's Athena tables", () => {
  const doc = readFileSync(new URL("../../../../docs/integrations.md", import.meta.url), "utf8");
  const statements = [
    ...doc.matchAll(/CREATE EXTERNAL TABLE (\w+) \(([\s\S]*?)\n\)\n([\s\S]*?);/g),
  ];
  const columnsOf = (body: string) =>
    [...body.matchAll(/(\w+) (?:string|timestamp|boolean)/g)].map((m) => m[1]);
  const fill = (template: string, values: Record<string, string>) =>
    template.replace(/\$\{(\w+)\}/g, (_, name: string) => values[name] ?? "");

  it("declare k9's columns and read k9's keys", () => {
    const byName = new Map(statements.map((m) => [m[1], m]));
    const parts = { customerId: PARTNER, accountId: "210987654321", type: "principals" } as const;
    const csv = byName.get("k9_principals");
    const parquet = byName.get("k9_principals_parquet");
    expect(columnsOf(csv?.[2] ?? "")).toEqual(K9_COLUMNS.principals);
    expect(columnsOf(parquet?.[2] ?? "")).toEqual(K9_COLUMNS.principals);
    const values = {
      customer_id: PARTNER,
      csp: "aws",
      account_id: "210987654321",
      file_type: "csv_principals",
    };
    const template = (m: RegExpExecArray | RegExpMatchArray | undefined) =>
      /'storage\.location\.template' = 's3:\/\/<bucket>\/([^']+)'/.exec(m?.[3] ?? "")?.[1] ?? "";
    expect(`${fill(template(csv), values)}principals.latest.csv`).toBe(athenaCsvKey(parts));
    expect(`${fill(template(parquet), values)}principals.latest.parquet`).toBe(
      athenaParquetKey(parts),
    );
    expect(csv?.[3]).toContain(
      `LOCATION 's3://<bucket>/${ATHENA_LOCATIONS.principals.csv.location}'`,
    );
    expect(parquet?.[3]).toContain(
      `LOCATION 's3://<bucket>/${ATHENA_LOCATIONS.principals.parquet.location}'`,
    );
  });

  it("list the other reports' file types and columns", () => {
    for (const type of [
      "resources",
      "principal-access-summaries",
      "resource-access-summaries",
    ] as const) {
      const table = `k9_${type.replaceAll("-", "_")}`;
      const row = new RegExp(`^\\| \`${table}\` \\| \`([a-z_]+)\` \\| \`([^\`]+)\` \\|$`, "m").exec(
        doc,
      );
      expect(row?.[1]).toBe(ATHENA_CSV_FILE_TYPES[type]);
      expect(row?.[2]?.split(", ")).toEqual(K9_COLUMNS[type]);
      expect(doc).toContain(`\`${ATHENA_LOCATIONS[type].parquet.location}\``);
    }
  });
});
