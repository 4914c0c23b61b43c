#!/usr/bin/env node
// `npm run studio -- <command>` (and `npm run bridge -- <command>`): runs the compiled command line
// (scripts/build-cli.mjs), compiling it first when a source changed since the last build. The command runs
// in this very process, so signals and exit codes are its own.
import { pathToFileURL } from "node:url";
import { cliEntry } from "./build-cli.mjs";

await import(pathToFileURL(await cliEntry()).href);
