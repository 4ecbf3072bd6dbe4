import { loadAwsServiceSpec } from "@aws-cdk/aws-service-spec";

/**
 * A small cfn-lint (which cannot be installed here) over AWS's own resource specification
 * (`@aws-cdk/aws-service-spec`, the CDK's database of CloudFormation's registry schemas):
 * resource types, property names and types, required properties, allowed values, and the
 * targets of `Ref`, `Fn::GetAtt`, `Fn::Sub` and `Fn::If`. It answers the problems it found.
 */
interface PropertyType {
  type: string;
  element?: PropertyType;
  reference?: { $ref: string };
  types?: PropertyType[];
  allowedValues?: string[];
}
interface Property {
  type: PropertyType;
  required?: boolean;
}
interface Shape {
  properties: Record<string, Property>;
}
interface ResourceSpec extends Shape {
  attributes: Record<string, unknown>;
}
interface SpecDatabase {
  lookup(
    key: "resource",
    index: "cloudFormationType",
    how: "equals",
    value: string,
  ): readonly ResourceSpec[];
  get(key: "typeDefinition", id: string): Shape;
}

export interface CloudFormationSpec {
  resource(type: string): ResourceSpec | undefined;
  typeDefinition(id: string): Shape;
}

export async function loadCloudFormationSpec(): Promise<CloudFormationSpec> {
  const db = (await loadAwsServiceSpec()) as unknown as SpecDatabase;
  return {
    resource: (type) => db.lookup("resource", "cloudFormationType", "equals", type)[0],
    typeDefinition: (id) => db.get("typeDefinition", id),
  };
}

const SECTIONS = new Set([
  "AWSTemplateFormatVersion",
  "Description",
  "Metadata",
  "Parameters",
  "Rules",
  "Mappings",
  "Conditions",
  "Transform",
  "Resources",
  "Outputs",
]);
const PARAMETER_TYPES = /^(String|Number|CommaDelimitedList|List<Number>|AWS::[A-Za-z0-9:<>]+)$/;
const PSEUDO = new Set([
  "AWS::AccountId",
  "AWS::NotificationARNs",
  "AWS::NoValue",
  "AWS::Partition",
  "AWS::Region",
  "AWS::StackId",
  "AWS::StackName",
  "AWS::URLSuffix",
]);

type Template = Record<string, Record<string, Record<string, unknown>> | string | undefined>;

export function checkTemplate(spec: CloudFormationSpec, template: Template): string[] {
  const problems: string[] = [];
  for (const section of Object.keys(template))
    if (!SECTIONS.has(section)) problems.push(`${section}: not a template section`);
  const parameters = (template.Parameters ?? {}) as Record<string, Record<string, unknown>>;
  const resources = (template.Resources ?? {}) as Record<string, Record<string, unknown>>;
  const conditions = new Set(Object.keys((template.Conditions ?? {}) as object));
  for (const [name, parameter] of Object.entries(parameters))
    if (!PARAMETER_TYPES.test(String(parameter.Type)))
      problems.push(`Parameters.${name}.Type: ${String(parameter.Type)} is no parameter type`);
  const known = (name: string) => name in parameters || name in resources || PSEUDO.has(name);
  const intrinsics = (value: unknown, at: string, locals: Set<string> = new Set()) =>
    checkIntrinsics(value, at, { spec, resources, conditions, known, locals, problems });
  for (const [name, resource] of Object.entries(resources)) {
    const type = String(resource.Type);
    const found = spec.resource(type);
    if (!found) {
      problems.push(`Resources.${name}.Type: ${type} is no CloudFormation resource type`);
      continue;
    }
    checkShape(spec, found, resource.Properties ?? {}, `Resources.${name}.Properties`, problems);
    intrinsics(resource.Properties, `Resources.${name}.Properties`);
  }
  for (const [name, output] of Object.entries((template.Outputs ?? {}) as object)) {
    if (!("Value" in output)) problems.push(`Outputs.${name}: has no Value`);
    intrinsics(output, `Outputs.${name}`);
  }
  return problems;
}

/** A value CloudFormation computes: its type is checked where it is defined, not here. */
function isIntrinsic(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && (keys[0] === "Ref" || keys[0]?.startsWith("Fn::") === true);
}

function checkShape(
  spec: CloudFormationSpec,
  shape: Shape,
  value: unknown,
  at: string,
  problems: string[],
): void {
  if (isIntrinsic(value)) return;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problems.push(`${at}: must be an object`);
    return;
  }
  for (const [name, property] of Object.entries(shape.properties))
    if (property.required && !(name in value)) problems.push(`${at}.${name}: is required`);
  for (const [name, member] of Object.entries(value)) {
    const property = shape.properties[name];
    if (!property) problems.push(`${at}.${name}: is no property of this type`);
    else problems.push(...checkType(spec, property.type, member, `${at}.${name}`));
  }
}

function checkType(
  spec: CloudFormationSpec,
  type: PropertyType,
  value: unknown,
  at: string,
): string[] {
  if (isIntrinsic(value) || type.type === "json") return [];
  const problems: string[] = [];
  const expect = (ok: boolean, what: string) => (ok ? [] : [`${at}: must be ${what}`]);
  switch (type.type) {
    case "string":
    case "date-time":
      if (typeof value !== "string" && typeof value !== "number") return expect(false, "a string");
      if (type.allowedValues && !type.allowedValues.includes(String(value)))
        return expect(false, `one of ${type.allowedValues.join(", ")}`);
      return [];
    case "integer":
    case "number":
      return expect(Number.isFinite(Number(value)) && typeof value !== "boolean", "a number");
    case "boolean":
      return expect(
        typeof value === "boolean" || value === "true" || value === "false",
        "true or false",
      );
    case "array":
      if (!Array.isArray(value)) return expect(false, "a list");
      value.forEach((element, i) => {
        if (type.element) problems.push(...checkType(spec, type.element, element, `${at}.${i}`));
      });
      return problems;
    case "map":
      if (typeof value !== "object" || value === null) return expect(false, "a map");
      for (const [key, element] of Object.entries(value))
        if (type.element) problems.push(...checkType(spec, type.element, element, `${at}.${key}`));
      return problems;
    case "tag":
      checkShape(spec, TAG, value, at, problems);
      return problems;
    case "ref":
      checkShape(spec, spec.typeDefinition(type.reference?.$ref ?? ""), value, at, problems);
      return problems;
    case "union": {
      const tries = (type.types ?? []).map((option) => checkType(spec, option, value, at));
      return tries.some((found) => found.length === 0) ? [] : (tries[0] ?? []);
    }
    default:
      return [];
  }
}

const TAG: Shape = {
  properties: {
    Key: { type: { type: "string" }, required: true },
    Value: { type: { type: "string" }, required: true },
  },
};

interface IntrinsicContext {
  spec: CloudFormationSpec;
  resources: Record<string, Record<string, unknown>>;
  conditions: Set<string>;
  known: (name: string) => boolean;
  locals: Set<string>;
  problems: string[];
}

/** Every `Ref`, `Fn::GetAtt`, `Fn::Sub` variable and `Fn::If` condition names something. */
function checkIntrinsics(value: unknown, at: string, ctx: IntrinsicContext): void {
  if (Array.isArray(value)) {
    for (const [i, element] of value.entries()) checkIntrinsics(element, `${at}.${i}`, ctx);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const [key, member] of Object.entries(value)) {
    if (key === "Ref" && !ctx.known(String(member)))
      ctx.problems.push(`${at}: Ref ${String(member)} names nothing`);
    if (key === "Fn::GetAtt") {
      const [resource, attribute] = Array.isArray(member) ? member : String(member).split(".");
      const type = ctx.resources[String(resource)]?.Type;
      const attributes = ctx.spec.resource(String(type))?.attributes ?? {};
      if (!(String(attribute) in attributes))
        ctx.problems.push(`${at}: Fn::GetAtt ${resource}.${attribute} names no attribute`);
    }
    if (key === "Fn::If" && Array.isArray(member) && !ctx.conditions.has(String(member[0])))
      ctx.problems.push(`${at}: Fn::If ${String(member[0])} names no condition`);
    if (key === "Fn::Sub") {
      const [text, locals] = Array.isArray(member) ? member : [member, {}];
      const names = [...String(text).matchAll(/\$\{([^}!]+)\}/g)].map((match) => match[1] ?? "");
      for (const name of names)
        if (!(name in (locals as object)) && !ctx.known(name.split(".")[0] ?? ""))
          ctx.problems.push(`${at}: Fn::Sub \${${name}} names nothing`);
    }
    checkIntrinsics(member, `${at}.${key}`, ctx);
  }
}
