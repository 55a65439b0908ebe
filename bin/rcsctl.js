#!/usr/bin/env node
// Thin launcher: the CLI is a function (src/cli/main.ts) so tests can run it in-process.
import { main } from '../dist/src/cli/main.js';

// A reader that stops reading (`rcsctl --help | head -1`) closes the pipe: the
// rest of the output has nobody to go to, so the process ends quietly, as
// other command-line tools do, instead of dying on an unhandled EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(process.exitCode ?? 0);
  });
}

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
});
// main has returned: nothing of the CLI's is left to do. A timer a request
// left behind (the backoff wait of a retry its run aborted) must not hold the
// exit, or `controller --shutdown-timeout` would be no bound; the process
// normally ends before this fires, which never keeps it alive.
setTimeout(() => process.exit(), 500).unref();
