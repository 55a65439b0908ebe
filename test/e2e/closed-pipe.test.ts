// A reader that stops reading (`rcsctl --help | head -1`) closes the pipe
// before rcsctl has written everything. The process must end quietly with its
// own exit status, not die on an unhandled EPIPE with a Node.js stack trace.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const BIN = join(ROOT, 'bin', 'rcsctl.js');

/** Run rcsctl with its standard output's reading end closed at once. */
function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a closed output pipe', () => {
  it.each([[['--help']], [['completion', 'zsh']], [['validate', 'examples/brand', '--format', 'json']]])(
    'rcsctl %j ends quietly with exit 0',
    async (args) => {
      const r = await withClosedStdout(args);
      expect(r.stderr).not.toMatch(/EPIPE|Unhandled 'error'/);
      expect(r.code).toBe(0);
    },
  );
});
