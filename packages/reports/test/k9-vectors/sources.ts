/**
 * Where every k9 test vector comes from. Each vector cites one of these with a path and line;
 * `git --git-dir=<mirror> show <commit>:<path> | sed -n <line>p` shows the line.
 *
 * k9-datadog-viz and k9-splunk-viz carry no licence: nothing of them is copied here beyond the
 * column names, attribute values and the few sample rows `samples.ts` quotes (each cited); the
 * rules themselves are re-expressed as our own regular expressions. k9-cli is Apache-2.0; its
 * folder walk is re-implemented (`k9-cli.ts`), not copied.
 */
export const K9_SOURCES = {
  datadog: {
    repo: "k9securityio/k9-datadog-viz",
    commit: "ed315277a383819920e1f34c4e3a10277735f4d1",
    pipeline: "pipelines/k9-reports-latest.pipeline.json",
    dashboard: "dashboards/k9security-daily-review.json",
  },
  splunk: {
    repo: "k9securityio/k9-splunk-viz",
    commit: "3e418ae4673941cced7612de6b88eea68ffa9bca",
    readme: "README.md",
    dashboard: "k9_daily_review.dashboard.xml",
    staging: "stage-k9security-data-for-ingest.sh",
    sync: "k9security.bash",
  },
  k9Cli: {
    repo: "k9securityio/k9-cli",
    commit: "bede6021f7755347b1e929c926a2699a88e9addc",
    reports: "core/reports.go",
    db: "core/db.go",
    strings: "core/strings.go",
    list: "core/list.go",
    sync: "cmd/sync.go",
  },
  /** Two versions of one page were seen: the CSV hive layout and, later, the Parquet one. */
  athenaDocs: "https://docs.k9security.io/integrations/aws-athena/",
  /** The dated folder layout and the `resource-access-audit.<stamp>.xlsx` name. */
  kata0: "https://www.k9security.io/docs/katas/kata-0-find-and-tour-a-k9-access-inventory-report/",
  /** Grok matchers; a rule is implicitly anchored (`^…$`); empty values are not kept. */
  datadogParsing: "https://docs.datadoghq.com/logs/log_configuration/parsing/",
} as const;
