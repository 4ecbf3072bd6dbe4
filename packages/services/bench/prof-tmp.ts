import { createTestDatabase } from "@sightline/db/testing";
import { changesTable, runChanges } from "./changes-case.ts";

const db = await createTestDatabase(process.env.DATABASE_URL);
const r = await runChanges(db.url, (process.argv[2] ?? "medium") as "medium");
console.log(changesTable(r));
await db.dispose();
