import type { ReportedAccessPath } from "@sightline/engine";
import type { ResourceAccessPathReportRow } from "../columns/report-columns.ts";
import type { ReportContext } from "./report-context.ts";

/** One row per access path of the roles an analysis reports (the engine's `reportedAccessPaths`). */
export function* resourceAccessPathRows(
  entries: Iterable<ReportedAccessPath>,
  context: ReportContext,
): Generator<ResourceAccessPathReportRow> {
  for (const { roleArn, reason, path, complete } of entries) {
    yield {
      analysis_time: context.analysisTime,
      resource_name: context.resource(roleArn).name,
      resource_arn: roleArn,
      resource_type: "IAMRole",
      reason,
      path_nodes: path.nodes,
      truncated: path.truncated,
      cycle: path.cycle,
      conditional: path.conditional,
      paths_complete: complete,
    };
  }
}
