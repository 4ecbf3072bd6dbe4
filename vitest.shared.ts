/**
 * Part of every package's Vitest configuration: tests import workspace packages from their
 * TypeScript sources (the `@sightline/source` export condition), never from their build. The
 * others are Vite's defaults, which a configured list replaces, less `module`: with it Vite
 * picks the AWS SDK's browser-style ES build, which Node cannot run.
 */
const conditions = ["@sightline/source", "node", "development|production"];

export const fromSources = { resolve: { conditions }, ssr: { resolve: { conditions } } };
