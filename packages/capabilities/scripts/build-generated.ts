import { buildAwsCatalogue } from "./build-aws-catalogue.ts";
import { buildAzureMap } from "./build-azure-map.ts";
import { formatJson } from "./format-json.ts";

/** File name under src/generated/ -> its exact contents. */
export async function buildGeneratedFiles(): Promise<Record<string, string>> {
  const aws = await buildAwsCatalogue();
  return {
    "aws-actions.json": `${formatJson(aws, 4)}\n`,
    "azure-operations.json": `${formatJson(buildAzureMap(), 3)}\n`,
  };
}
