// The browser the preview's browser test drives, found without anything installed
// by hand: CHROMIUM_PATH (Debian's chromium, say) when set, else the Chromium that
// the @sparticuz/chromium package ships inside its npm tarball. That one is unpacked
// once per machine (about 200 MB, 2 s) into a folder named for the package's
// version under os.tmpdir(), and reused by every later run and worktree.
//
// Why the package's own flags: the binary is chrome-headless-shell built for
// serverless machines. Driven over the DevTools protocol (playwright-core) with
// `chromium.args` it starts in a quarter of a second. Run by hand with
// `--screenshot` it never finishes, whatever the flags (the page loads, then no
// frame is ever captured and the process waits until killed); `--headless=new`
// is not even a mode this build has (its flags say `--headless='shell'`). So the
// test never uses the one-shot modes: it launches through playwright-core.
//
// Hangul needs an OTF or TTF font (the WOFF fonts of the font packages draw boxes
// here): the pretendard package's OTF files, handed to fontconfig through
// FONTCONFIG_FILE in the browser's environment only.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The package's folder: its package.json names the version the cache folder is named for. */
const PACKAGE_DIR = join(ROOT, 'node_modules', '@sparticuz', 'chromium');
const FONTS = join(ROOT, 'node_modules', 'pretendard', 'dist', 'public', 'static');

/** Flags every launch gets: the browser stays off the network on its own account. */
const QUIET = ['--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'];
/** The flags for a distribution's Chromium (CHROMIUM_PATH). */
const SYSTEM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', ...QUIET];

/** The packaged Chromium's executable, unpacked into os.tmpdir() on the first call on this machine. */
export async function packagedChromium(): Promise<string> {
  const version = (JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }).version;
  const cache = join(tmpdir(), `rcsctl-chromium-${version}`);
  const binary = join(cache, 'chromium');
  if (existsSync(binary)) return binary;
  // The package unpacks into os.tmpdir() and trusts whatever it finds there, even a
  // half-written file. So it unpacks in a child whose TMPDIR is a fresh folder, which
  // is then renamed into place whole: a run killed half way, or two test runs at once
  // on one machine, never leave or use a partial browser.
  const staging = mkdtempSync(join(tmpdir(), 'rcsctl-chromium-unpack-'));
  try {
    execFileSync(process.execPath, ['--input-type=module', '-e', "await (await import('@sparticuz/chromium')).default.executablePath()"], {
      cwd: ROOT,
      env: { ...process.env, TMPDIR: staging },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    renameSync(staging, cache);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    // Another run renamed its copy into place first: use that one.
    if (!existsSync(binary)) throw err;
  }
  return binary;
}

/** Writes a fontconfig file into `dir` that knows only the pretendard OTF fonts, and returns its path. */
export function fontsConf(dir: string): string {
  const file = join(dir, 'fonts.conf');
  writeFileSync(
    file,
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${FONTS}</dir>\n  <cachedir>${join(dir, 'fontconfig-cache')}</cachedir>\n</fontconfig>\n`,
  );
  return file;
}

/**
 * Launches headless Chromium (CHROMIUM_PATH, else the packaged one) with a
 * persistent profile in `dir`, offline; `loopback`: every request to 127.0.0.1
 * goes through (a page a test server serves), every other is refused.
 */
export async function launchChromium(dir: string, opts: { loopback?: boolean } = {}): Promise<BrowserContext> {
  const system = process.env.CHROMIUM_PATH;
  if (system !== undefined && !existsSync(system)) throw new Error(`CHROMIUM_PATH is ${system}, and there is no file there: unset it to use the Chromium that npm installed`);
  const executablePath = system ?? (await packagedChromium());
  const args = system !== undefined ? SYSTEM_ARGS : [...(await import('@sparticuz/chromium')).default.args, ...QUIET];
  const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath,
    headless: true,
    args,
    env: { ...process.env, FONTCONFIG_FILE: fontsConf(dir) },
    viewport: { width: 1280, height: 720 },
    offline: opts.loopback !== true,
  });
  if (opts.loopback === true) await context.route('**/*', (route) => (/^(http:\/\/127\.0\.0\.1[:/]|data:)/.test(route.request().url()) ? route.continue() : route.abort('internetdisconnected')));
  return context;
}
