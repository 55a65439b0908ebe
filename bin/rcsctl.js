#!/usr/bin/env node
// Thin launcher: the CLI is a function (src/cli/main.ts) so tests can run it in-process.
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
});
