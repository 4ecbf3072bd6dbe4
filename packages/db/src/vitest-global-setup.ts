import type { TestProject } from "vitest/node";
import { createTestDatabase } from "./testing.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/**
 * Vitest global setup shared by every package with database tests: one migrated database for
 * the run, on DATABASE_URL's server or an embedded Postgres; tests read it with `inject`.
 */
export default async function setup(project: TestProject) {
  const database = await createTestDatabase(process.env.DATABASE_URL);
  project.provide("databaseUrl", database.url);
  return () => database.dispose();
}
