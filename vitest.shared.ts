/**
 * Part of every package's Vitest configuration: tests import workspace packages from their
 * TypeScript sources (the `@sightline/source` export condition), never from their build. The
 * others are Vite's defaults, which a configured list replaces, less `module`: with it Vite
 * picks the AWS SDK's browser-style ES build, which Node cannot run.
 */
const conditions = ["@sightline/source", "node", "development|production"];

export const fromSources = { resolve: { conditions }, ssr: { resolve: { conditions } } };

/**
 * The longest a test and a hook may take where a package sets nothing longer. Vitest's defaults
 * (5 s and 10 s) are too short on a loaded machine: CI runs every package's tests at once on two
 * cores, and a fake that makes its TLS key at start once took more than 5 s there. Tests wait on
 * conditions, never on time, so a long limit costs nothing when they pass; speed is measured by
 * `pnpm bench`.
 */
export const loadedMachineTimeouts = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // `expect.poll` waits on a condition for 1 s by default: a browser paging 20 times through a
  // loaded machine's loopback took longer in CI. The deadline is long; the poll ends as soon as the
  // condition holds.
  expect: { poll: { timeout: 30_000 } },
};
