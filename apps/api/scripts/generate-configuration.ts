/**
 * Writes `docs/configuration.md` from the configuration schemas (`pnpm docs:configuration` in the
 * repository root). The test `test/configuration-page.test.ts` fails until the page is rewritten.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CONFIGURATION_PAGE, renderConfigurationPage } from "./configuration-page.ts";

const target = fileURLToPath(new URL(`../../../${CONFIGURATION_PAGE}`, import.meta.url));
writeFileSync(target, renderConfigurationPage());
console.log(`wrote ${CONFIGURATION_PAGE}`);
