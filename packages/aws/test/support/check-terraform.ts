import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "@cdktf/hcl2json";

/** A module's blocks as HashiCorp's HCL parser (`@cdktf/hcl2json`) reads them, merged per kind. */
export interface TerraformModule {
  terraform: Record<string, unknown>[];
  variable: Record<string, Record<string, unknown>[]>;
  locals: Record<string, unknown>[];
  resource: Record<string, Record<string, Record<string, unknown>[]>>;
  data: Record<string, Record<string, Record<string, unknown>[]>>;
  output: Record<string, Record<string, unknown>[]>;
}

/** Parses every `.tf` file of the folder; a syntax error rejects, naming the file and line. */
export async function readTerraformModule(dir: string): Promise<TerraformModule> {
  const module: TerraformModule = {
    terraform: [],
    variable: {},
    locals: [],
    resource: {},
    data: {},
    output: {},
  };
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith(".tf"))
    .sort()) {
    const parsed = await parse(file, readFileSync(join(dir, file), "utf8"));
    module.terraform.push(...(parsed.terraform ?? []));
    module.locals.push(...(parsed.locals ?? []));
    Object.assign(module.variable, parsed.variable);
    Object.assign(module.output, parsed.output);
    for (const kind of ["resource", "data"] as const)
      for (const [type, blocks] of Object.entries(parsed[kind] ?? {}))
        module[kind][type] = { ...module[kind][type], ...(blocks as object) };
  }
  return module;
}

/**
 * References that name nothing in the module: `var.x` without a variable, `local.x` without a
 * local, `aws_t.n` and `data.aws_t.n` without their block. Terraform itself would refuse them.
 */
export function unresolvedReferences(module: TerraformModule): string[] {
  const text = JSON.stringify([module.resource, module.data, module.output, module.locals]);
  const expressions = [...text.matchAll(/\$\{([^}]*)\}/g)].map((match) => match[1] ?? "");
  const locals = new Set(module.locals.flatMap((block) => Object.keys(block)));
  const problems = new Set<string>();
  for (const expression of expressions) {
    for (const [, name] of expression.matchAll(/\bvar\.([a-z0-9_]+)/g))
      if (!(name && name in module.variable)) problems.add(`var.${name}`);
    for (const [, name] of expression.matchAll(/\blocal\.([a-z0-9_]+)/g))
      if (!(name && locals.has(name))) problems.add(`local.${name}`);
    for (const [whole, data, type, name] of expression.matchAll(
      /\b(data\.)?(aws_[a-z0-9_]+)\.([a-z0-9_]+)/g,
    )) {
      const blocks = data ? module.data : module.resource;
      if (!(type && name && blocks[type]?.[name])) problems.add(whole);
    }
  }
  return [...problems];
}
