import { defineConfig } from "vite";

/**
 * The console compiles to static files under `dist/`, served by the API at `/console/`. Nothing
 * is loaded from elsewhere: the bundle has no CDN reference and the page talks to the API only.
 */
export default defineConfig({
  base: "/console/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Scripts and styles as files: the API's Content-Security-Policy allows 'self' only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
});
