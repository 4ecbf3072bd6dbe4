import { AzureSnapshotError, type PermissionBlock } from "./azure-model.ts";
import type { AzurePermissionInput } from "./azure-snapshot.ts";

/**
 * The field readers of `readAzureSnapshot`: each checks one value of the snapshot and throws
 * `AzureSnapshotError` naming the field (e.g. `roleAssignments[3].scope`) when it is malformed.
 */

export const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export function record(value: unknown, field: string): Record<string, unknown> {
  if (!isObject(value)) throw new AzureSnapshotError(field, "must be an object");
  return value;
}

export function text(value: unknown, field: string): string {
  if (typeof value !== "string" || value.trim() === "")
    throw new AzureSnapshotError(field, "must be a non-empty string");
  return value;
}

export function optionalText(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new AzureSnapshotError(field, "must be a string or null");
  return value === "" ? undefined : value;
}

export function list(value: unknown, field: string, required: boolean): readonly unknown[] {
  if (value === undefined || value === null) {
    if (required) throw new AzureSnapshotError(field, "is required: a list");
    return [];
  }
  if (!Array.isArray(value)) throw new AzureSnapshotError(field, "must be a list");
  return value;
}

export function textList(value: unknown, field: string): string[] {
  return list(value, field, false).map((v, i) => text(v, `${field}[${i}]`));
}

export function optionalBoolean(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw new AzureSnapshotError(field, "must be true or false");
  return value;
}

export function readBlocks(value: unknown, field: string, required: boolean): PermissionBlock[] {
  return list(value, field, required).map((entry, j) => {
    const path = `${field}[${j}]`;
    const p = record(entry, path) as AzurePermissionInput & Record<string, unknown>;
    const condition = optionalText(p.condition, `${path}.condition`);
    return {
      actions: textList(p.actions, `${path}.actions`),
      notActions: textList(p.notActions, `${path}.notActions`),
      dataActions: textList(p.dataActions, `${path}.dataActions`),
      notDataActions: textList(p.notDataActions, `${path}.notDataActions`),
      ...(condition ? { condition } : {}),
      path,
    };
  });
}

/** The last segment of an ID (`…/roleDefinitions/<guid>` -> guid), lower-cased. */
export const lastSegment = (id: string) => id.slice(id.lastIndexOf("/") + 1).toLowerCase();
