import { createTestDatabase } from "@sightline/db/testing";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/** One migrated database for the whole run: DATABASE_URL's server, or an embedded one. */
export default async function setup(project: TestProject) {
  const database = await createTestDatabase(process.env.DATABASE_URL);
  project.provide("databaseUrl", database.url);
  return () => database.dispose();
}
