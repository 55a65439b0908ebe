// `rcsctl export --brand ID [--out DIR]`: write today's live brand as a
// manifest (DIR/brand.yaml) with its images (DIR/images/), so an existing
// brand can be adopted: `rcsctl plan DIR` right after shows no changes.
// `--brand` repeated, or `--all`, exports several brands in one run, each into
// its own folder (the run itself: src/cli/export-brands.ts).
// `rcsctl export --resource ADDRESS --into FILE` adopts one live resource
// into an existing manifest instead, with the same round trip.

import { requestsLine } from '../../render/plan-text.js';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import { adoptResource, sectionOrder } from '../../export/adopt.js';
import { insertEntries } from '../../export/insert-entries.js';
import { fetchImages, saveImages } from '../../export/write-export.js';
import type { DesiredBrand } from '../../manifest/types.js';
import { shortPath } from '../../util/paths.js';
import { declaredBy, loadBrands } from '../load.js';
import { readLive } from '../../plan/read-live.js';
import { connect } from '../connect.js';
import type { CommandContext } from '../context.js';
import { EXIT_OK } from '../exit-codes.js';
import { makeProgress } from '../progress.js';
import { outOption, outValue } from '../options.js';
import { writeOutputFile } from '../../util/output-file.js';
import { credentialsOnly, runExport } from '../export-brands.js';
import type { BaseChoice } from '../../export/against-base.js';

interface ExportFlags {
  brand?: string[];
  all?: boolean;
  base?: string;
  var?: string[];
  out?: string;
  output?: string;
  brandKeyEnv?: string;
  force: boolean;
  resource?: string;
  into?: string;
  handle?: string;
  account?: string;
}

/** Register `rcsctl export`. */
export function registerExport(program: Command, ctx: CommandContext): void {
  const cmd = program
    .command('export')
    .description('write a live brand as a manifest with its images, to adopt it (plan right after shows no changes)')
    .argument('[paths...]', 'with --into: the other manifests of the brand, checked so nothing is declared twice (default: the --into file)')
    .option('--brand <id>', 'a brand to export (repeat for several, each into its own folder under --out; required unless --all or --into)', (value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  outOption(cmd, 'dir', 'directory to write brand.yaml and images/ into (default: ./<brand id>); with several brands, the folder each brand\'s folder (<brand id>) goes into (default: .)');
  cmd
    .option('--brand-key-env <name>', 'agency accounts: read the brand key from this environment variable, and write key: "${env:NAME}"')
    .option('--account <id>', 'the account (personId) to read the brand profile page as (default: RCSCTL_PERSON_ID); written into the manifest as the page\'s account')
    .option('--force', 'overwrite an existing brand.yaml', false)
    .option('--resource <address>', 'adopt one live resource (autoReply.<id or name>, logo.<fileId or name>, chatbot.<chatbotId>) into the manifest --into names')
    .option('--into <file>', 'with --resource: the existing manifest file to add it to (its images go under images/ beside it)')
    .option('--handle <name>', 'with --resource: the handle to declare it under (default: from its name, as export does)')
    .option('--base <path>', 'write each brand against this base (kind: Base): what it gives as live is left out, the rest written as variables, overrides and the brand\'s own resources')
    .option('--var <name=value>', 'with --base: a value of one of its variables, for every brand exported (repeat for several; the others are read off the live brand)', (value: string, previous: string[] | undefined) => [...(previous ?? []), value])
    .option('--all', 'every brand the account can see (--account or RCSCTL_PERSON_ID), each into its own folder under --out')
    .action(async (paths: string[] | undefined, flags: ExportFlags) => {
      if (flags.resource !== undefined || flags.into !== undefined) {
        await adoptCommand(ctx, paths ?? [], flags);
        return;
      }
      if (flags.handle !== undefined) throw new RcsctlError('E_USAGE', '--handle goes with --resource and --into');
      if (flags.account !== undefined && flags.account.trim() === '') throw new RcsctlError('E_USAGE', '--account needs an account id (the personId the brand profile page is read as)');
      if ((paths ?? []).length > 0) throw new RcsctlError('E_USAGE', `export takes no paths unless adopting with --resource and --into (got ${(paths ?? []).join(' ')})`);
      const brands = flags.brand ?? [];
      if (flags.all === true && brands.length > 0) throw new RcsctlError('E_USAGE', '--all exports every brand the account can see; leave out --brand (or name the brands with --brand, without --all)');
      if (flags.all !== true && brands.length === 0) throw new RcsctlError('E_USAGE', 'export needs --brand ID (repeat it for several), --all, or --resource ADDRESS --into FILE to adopt one resource');
      for (const brand of brands) if (!/^BR\.[A-Za-z0-9]{10}$/.test(brand)) throw new RcsctlError('E_USAGE', `--brand must be a brand id like BR.1234567890, not "${brand}"`);
      const twice = brands.find((b, i) => brands.indexOf(b) !== i);
      if (twice !== undefined) throw new RcsctlError('E_USAGE', `--brand ${twice} is given twice`);
      if (flags.brandKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(flags.brandKeyEnv)) {
        throw new RcsctlError('E_USAGE', `--brand-key-env must be an environment variable name, not "${flags.brandKeyEnv}"`);
      }
      const fromEnv = ctx.io.env.RCSCTL_PERSON_ID;
      const account = flags.account ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined);
      const out = outValue(flags);
      const base = baseChoice(ctx, flags);
      await runExport(ctx, {
        ...(base !== undefined ? { base } : {}),
        brands,
        all: flags.all === true,
        force: flags.force,
        ...(out !== undefined ? { out } : {}),
        ...(flags.brandKeyEnv !== undefined ? { brandKeyEnv: flags.brandKeyEnv } : {}),
        ...(account !== undefined ? { account } : {}),
      });
    });
}

/** `--base PATH` and its `--var NAME=VALUE`s, checked. */
function baseChoice(ctx: CommandContext, flags: ExportFlags): BaseChoice | undefined {
  if (flags.base === undefined) {
    if (flags.var !== undefined) throw new RcsctlError('E_USAGE', '--var gives a value to a variable of --base; name the base with --base PATH');
    return undefined;
  }
  const given = new Map<string, string>();
  for (const v of flags.var ?? []) {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new RcsctlError('E_USAGE', `--var takes NAME=VALUE, not "${v}"`);
    given.set(v.slice(0, eq), v.slice(eq + 1));
  }
  return { abs: resolve(ctx.io.cwd, flags.base), given };
}

/** `export --resource ADDRESS --into FILE [paths...]`: adopt one live resource into an existing manifest. */
async function adoptCommand(ctx: CommandContext, paths: string[], flags: ExportFlags): Promise<void> {
  if (flags.resource === undefined || flags.into === undefined) throw new RcsctlError('E_USAGE', '--resource and --into go together: rcsctl export --resource ADDRESS --into FILE');
  if (outValue(flags) !== undefined || flags.force || flags.brandKeyEnv !== undefined || flags.account !== undefined || flags.all === true || flags.base !== undefined) {
    throw new RcsctlError('E_USAGE', '--out, --force, --all, --base, --brand-key-env and --account are for a whole-brand export; --into writes into the manifest, whose brand key (and brand profile account) it uses');
  }
  const { io } = ctx;
  const into = resolve(io.cwd, flags.into);
  if (!existsSync(into) || !statSync(into).isFile()) throw new RcsctlError('E_USAGE', `--into ${flags.into}: no such manifest file (adopting adds to an existing manifest; rcsctl export --brand ID writes a new one)`);
  // Another brand's broken file does not stop the adoption; this brand's does.
  const loaded = await loadBrands(ctx, [into, ...paths.map((p) => resolve(io.cwd, p))], flags.brand !== undefined ? { brand: flags.brand } : {});
  const isInto = (f: string | undefined): boolean => f !== undefined && resolve(io.cwd, f) === into;
  const inFile = loaded.brands.filter((b) => b.manifestFiles.some(isInto));
  // The file's brand failed when no good brand declares it (or when it names a failed one).
  const broken = loaded.failed.find((f) => isInto(f.error.file) || (f.desired?.manifestFiles.some(isInto) ?? false)) ?? (inFile.length === 0 ? loaded.failed[0] : undefined);
  if (broken !== undefined) throw new RcsctlError('E_MANIFEST', `${broken.brandId}: ${broken.error.message}`);
  if (inFile.length !== 1) {
    throw new RcsctlError(
      'E_USAGE',
      inFile.length === 0 ? `${flags.into} declares no brand${flags.brand !== undefined ? ` ${flags.brand.join(', ')}` : ''}` : `${flags.into} declares ${inFile.length} brands (${inFile.map((b) => b.brandId).join(', ')}); pick one with --brand`,
    );
  }
  const desired = inFile[0] as DesiredBrand;
  const g = ctx.globals();
  const conn = await connect(ctx, declaredBy([desired]));
  const progress = makeProgress(io);
  const base = dirname(into);
  try {
    const ref = desired.brandKey !== undefined ? { id: desired.brandId, key: desired.brandKey } : { id: desired.brandId };
    const account = io.env.RCSCTL_PERSON_ID;
    const live = await readLive(conn.client, ref, { concurrency: g.concurrency, ...(account !== undefined && account !== '' ? { account } : {}), onProgress: (done, total) => progress.update(desired.brandId, done, total) });
    progress.done();
    const adoption = adoptResource(desired, live, flags.resource, {
      ...(flags.handle !== undefined ? { handle: flags.handle } : {}),
      pathTaken: (p) => existsSync(join(base, ...p.split('/'))),
    });
    const edited = insertEntries(readFileSync(into, 'utf8'), flags.into, desired.brandId, adoption.additions, sectionOrder(), `adopted from ${desired.brandId} by rcsctl export --resource`);
    // Every image is fetched before anything is written: a failed download changes nothing.
    const fetched = await fetchImages(adoption.downloads, g.concurrency);
    const redaction = credentialsOnly(ctx);
    const notes = [...adoption.notes, ...saveImages(adoption.downloads, fetched, base, redaction)];
    // The manifest's own text is kept as it is (its `${env:NAME}` references included); what is added comes from the live brand.
    writeOutputFile(into, edited, redaction);
    const [first, ...along] = adoption.additions;
    if (first === undefined) throw new Error('rcsctl: adopting wrote no entry');
    io.stdout.write(`Adopted ${flags.resource} into ${flags.into} as ${first.address}\n`);
    for (const a of along) io.stdout.write(`  with ${a.address}${typeof a.entry.path === 'string' ? ` (${a.entry.path})` : ''}, which it uses\n`);
    for (const d of adoption.downloads) io.stdout.write(`  wrote ${shortPath(io.cwd, join(base, ...d.path.split('/')))}\n`);
    for (const note of notes) io.stdout.write(`  note: ${note}\n`);
    io.stdout.write(`${requestsLine(conn.requests)}\nCheck it with: rcsctl plan ${[flags.into, ...paths].join(' ')}\n`);
  } finally {
    progress.done();
    await conn.close();
  }
  ctx.exit(EXIT_OK);
}
