#!/usr/bin/env node
// Runs the TypeScript entry point through tsx, which the workspace installs.
import { register } from "tsx/esm/api";

register();
await import("../src/main.ts");
