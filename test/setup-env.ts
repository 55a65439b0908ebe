// Every test process (and every child it starts) keeps the rcsctl cache in a
// temporary directory, never in the real ~/.cache.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.XDG_CACHE_HOME = mkdtempSync(join(tmpdir(), 'rcsctl-test-cache-'));
delete process.env.RCSCTL_CACHE_DIR;
