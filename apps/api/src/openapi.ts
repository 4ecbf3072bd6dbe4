import { z } from "zod";
import type { RouteDef } from "./route.ts";

function schemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const json = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: "any",
  }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

function parametersOf(route: RouteDef): unknown[] {
  if (!route.params) return [];
  const json = schemaOf(route.params, "input") as { properties?: Record<string, unknown> };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => ({
    name,
    in: "path",
    required: true,
    schema,
  }));
}

/** The OpenAPI 3.1 document, built from the same zod schemas that validate the requests. */
export function buildOpenApiDocument(
  routes: readonly RouteDef[],
  version: string,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const responses = Object.fromEntries(
      Object.entries(route.responses).map(([status, response]) => [
        status,
        {
          description: response.description,
          ...(response.schema
            ? { content: { "application/json": { schema: schemaOf(response.schema, "output") } } }
            : {}),
        },
      ]),
    );
    paths[route.path] ??= {};
    const operation = paths[route.path] as Record<string, unknown>;
    operation[route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      tags: route.tags,
      ...(route.access.kind === "public" ? { security: [] } : {}),
      parameters: parametersOf(route),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: schemaOf(route.body, "input") } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Sightline",
      version,
      description:
        "Who can do what in your cloud accounts. Every endpoint except the probes and these documents requires `Authorization: Bearer <API key>`.",
    },
    components: { securitySchemes: { apiKey: { type: "http", scheme: "bearer" } } },
    security: [{ apiKey: [] }],
    paths,
  };
}
