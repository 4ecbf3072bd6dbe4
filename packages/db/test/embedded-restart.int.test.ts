import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import {
  createDb,
  getPartner,
  runMigrations,
  startEmbeddedPostgres,
  upsertPartner,
} from "../src/index.ts";

// Starting and stopping an embedded Postgres takes seconds when the machine is quiet and minutes
// when it is loaded (15-23 on two cores): the test ends when the server has, this is only the cap.
const EMBEDDED_DEADLINE_MS = 300_000;

const root = await mkdtemp(path.join(tmpdir(), "sightline-restart-"));
await chmod(root, 0o755);
afterAll(() => rm(root, { recursive: true, force: true }));

it(
  "keeps its data across a stop and a start of the embedded server",
  async () => {
    const dataDir = path.join(root, "data");
    const first = await startEmbeddedPostgres({ dataDir });
    await runMigrations(first.url);
    const before = createDb(first.url);
    await upsertPartner(before.db, {
      partnerId: "P424242",
      configs: { oemIntegrationEnabled: false },
    });
    await before.close();
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir });
    try {
      await runMigrations(second.url);
      const after = createDb(second.url);
      const partner = await getPartner(after.db, "P424242");
      await after.close();
      expect(partner).toEqual({
        partnerId: "P424242",
        configs: { oemIntegrationEnabled: false },
        deliveryDestinations: {},
      });
    } finally {
      await second.stop();
    }
  },
  EMBEDDED_DEADLINE_MS,
);
