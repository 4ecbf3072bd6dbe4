import { AsyncLocalStorage } from "node:async_hooks";
import type { Database } from "@sightline/db";
import type { AppDeps } from "./context.ts";

const current = new AsyncLocalStorage<Database>();

/** Runs `work` with `tx` as the database of every handler built on `ambientDeps`. */
export function inTransaction<T>(tx: Database, work: () => Promise<T>): Promise<T> {
  return current.run(tx, work);
}

/**
 * The app's dependencies, whose `db` (and the services' `db`) is the request's transaction
 * while one is open: a state-changing route's writes and its audit event commit together,
 * without each handler and verb passing the transaction along. Outside one, the pool.
 */
export function ambientDeps(deps: AppDeps): AppDeps {
  const db = () => current.getStore() ?? deps.db;
  const services = { ...deps.services };
  Object.defineProperty(services, "db", { get: db, enumerable: true });
  const ambient = { ...deps, services };
  Object.defineProperty(ambient, "db", { get: db, enumerable: true });
  return ambient;
}
