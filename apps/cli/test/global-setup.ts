export { default } from "@sightline/db/vitest-global-setup";
