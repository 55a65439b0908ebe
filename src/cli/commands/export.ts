// `rcsctl export --brand ID [--out DIR]`: write today's live brand as a
// manifest (DIR/brand.yaml) with its images (DIR/images/), so an existing
// brand can be adopted: `rcsctl plan DIR` right after shows no changes.
// `rcsctl export --resource ADDRESS --into FILE` adopts one live resource
// into an existing manifest instead, with the same round trip.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import { buildManifest } from '../../export/build-manifest.js';
import { adoptResource, sectionOrder } from '../../export/adopt.js';
import { insertEntries } from '../../export/insert-entries.js';
import { describeCounts } from '../../kinds/counts.js';
import { fetchImages, saveImages, writeExport } from '../../export/write-export.js';
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
import { Redaction } from '../../util/redaction.js';
import { credentialsInPlay } from '../secrets.js';

interface ExportFlags {
  brand?: string;
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
    .option('--brand <id>', 'the brand to export (required unless --into)');
  outOption(cmd, 'dir', 'directory to write brand.yaml and images/ into (default: ./<brand id>)');
  cmd
    .option('--brand-key-env <name>', 'agency accounts: read the brand key from this environment variable, and write key: "${env:NAME}"')
    .option('--account <id>', 'the account (personId) to read the brand profile page as (default: RCSCTL_PERSON_ID); written into the manifest as the page\'s account')
    .option('--force', 'overwrite an existing brand.yaml', false)
    .option('--resource <address>', 'adopt one live resource (autoReply.<id or name>, logo.<fileId or name>, chatbot.<chatbotId>) into the manifest --into names')
    .option('--into <file>', 'with --resource: the existing manifest file to add it to (its images go under images/ beside it)')
    .option('--handle <name>', 'with --resource: the handle to declare it under (default: from its name, as export does)')
    .action(async (paths: string[] | undefined, flags: ExportFlags) => {
      if (flags.resource !== undefined || flags.into !== undefined) {
        await adoptCommand(ctx, paths ?? [], flags);
        return;
      }
      if (flags.handle !== undefined) throw new RcsctlError('E_USAGE', '--handle goes with --resource and --into');
      if (flags.account !== undefined && flags.account.trim() === '') throw new RcsctlError('E_USAGE', '--account needs an account id (the personId the brand profile page is read as)');
      if ((paths ?? []).length > 0) throw new RcsctlError('E_USAGE', `export takes no paths unless adopting with --resource and --into (got ${(paths ?? []).join(' ')})`);
      if (flags.brand === undefined) throw new RcsctlError('E_USAGE', 'export needs --brand ID (or --resource ADDRESS --into FILE to adopt one resource)');
      const brand = flags.brand;
      if (!/^BR\.[A-Za-z0-9]{10}$/.test(brand)) throw new RcsctlError('E_USAGE', `--brand must be a brand id like BR.1234567890, not "${brand}"`);
      if (flags.brandKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(flags.brandKeyEnv)) {
        throw new RcsctlError('E_USAGE', `--brand-key-env must be an environment variable name, not "${flags.brandKeyEnv}"`);
      }
      const { io } = ctx;
      let key: string | undefined;
      if (flags.brandKeyEnv !== undefined) {
        key = io.env[flags.brandKeyEnv];
        if (key === undefined || key === '') throw new RcsctlError('E_CONFIG', `--brand-key-env ${flags.brandKeyEnv}: the variable is not set`);
      }
      const g = ctx.globals();
      const dir = resolve(io.cwd, outValue(flags) ?? brand);
      const fromEnv = io.env.RCSCTL_PERSON_ID;
      const account = flags.account ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined);
      const conn = await connect(ctx, { declared: [key !== undefined ? { brandId: brand, brandKey: key } : { brandId: brand }] });
      const progress = makeProgress(io);
      try {
        const live = await readLive(conn.client, key !== undefined ? { id: brand, key } : { id: brand }, {
          concurrency: g.concurrency,
          ...(account !== undefined ? { account } : {}),
          onProgress: (done, total) => progress.update(brand, done, total),
        });
        progress.done();
        const exported = buildManifest(live, flags.brandKeyEnv !== undefined ? { brandKeyEnv: flags.brandKeyEnv } : {});
        const header = [
          `Brand ${brand}, exported by rcsctl export${g.sandbox ? ' (sandbox)' : ''}.`,
          'No `prune:` is written: rcsctl deletes nothing until you list kinds there.',
          ...exported.notExported,
        ];
        const result = await writeExport(exported, dir, { force: flags.force, concurrency: g.concurrency, header, redaction: credentialsOnly(ctx) });
        io.stdout.write(
          `Exported ${brand}: ${describeCounts(exported.counts)}\n` +
            `  wrote ${resolve(result.manifestPath)} and ${result.images.length} image${result.images.length === 1 ? '' : 's'}\n`,
        );
        for (const note of [...result.notes, ...exported.notExported]) io.stdout.write(`  note: ${note}\n`);
        io.stdout.write(`Check it with: rcsctl plan ${flags.out ?? brand}\n`);
      } finally {
        progress.done();
        await conn.close();
      }
      ctx.exit(EXIT_OK);
    });
}

/** `export --resource ADDRESS --into FILE [paths...]`: adopt one live resource into an existing manifest. */
async function adoptCommand(ctx: CommandContext, paths: string[], flags: ExportFlags): Promise<void> {
  if (flags.resource === undefined || flags.into === undefined) throw new RcsctlError('E_USAGE', '--resource and --into go together: rcsctl export --resource ADDRESS --into FILE');
  if (outValue(flags) !== undefined || flags.force || flags.brandKeyEnv !== undefined || flags.account !== undefined) {
    throw new RcsctlError('E_USAGE', '--out, --force, --brand-key-env and --account are for a whole-brand export; --into writes into the manifest, whose brand key (and brand profile account) it uses');
  }
  const { io } = ctx;
  const into = resolve(io.cwd, flags.into);
  if (!existsSync(into) || !statSync(into).isFile()) throw new RcsctlError('E_USAGE', `--into ${flags.into}: no such manifest file (adopting adds to an existing manifest; rcsctl export --brand ID writes a new one)`);
  // Another brand's broken file does not stop the adoption; this brand's does.
  const loaded = await loadBrands(ctx, [into, ...paths.map((p) => resolve(io.cwd, p))], flags.brand !== undefined ? { brand: [flags.brand] } : {});
  const isInto = (f: string | undefined): boolean => f !== undefined && resolve(io.cwd, f) === into;
  const inFile = loaded.brands.filter((b) => b.manifestFiles.some(isInto));
  // The file's brand failed when no good brand declares it (or when it names a failed one).
  const broken = loaded.failed.find((f) => isInto(f.error.file) || (f.desired?.manifestFiles.some(isInto) ?? false)) ?? (inFile.length === 0 ? loaded.failed[0] : undefined);
  if (broken !== undefined) throw new RcsctlError('E_MANIFEST', `${broken.brandId}: ${broken.error.message}`);
  if (inFile.length !== 1) {
    throw new RcsctlError(
      'E_USAGE',
      inFile.length === 0 ? `${flags.into} declares no brand${flags.brand !== undefined ? ` ${flags.brand}` : ''}` : `${flags.into} declares ${inFile.length} brands (${inFile.map((b) => b.brandId).join(', ')}); pick one with --brand`,
    );
  }
  const desired = inFile[0] as DesiredBrand;
  const g = ctx.globals();
  const conn = await connect(ctx, declaredBy([desired]));
  const progress = makeProgress(io);
  const base = dirname(into);
  try {
    const ref = desired.brandKey !== undefined ? { id: desired.brandId, key: desired.brandKey } : { id: desired.brandId };
    const live = await readLive(conn.client, ref, { concurrency: g.concurrency, onProgress: (done, total) => progress.update(desired.brandId, done, total) });
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
    io.stdout.write(`Check it with: rcsctl plan ${[flags.into, ...paths].join(' ')}\n`);
  } finally {
    progress.done();
    await conn.close();
  }
  ctx.exit(EXIT_OK);
}

/**
 * What export's files are redacted by: the credentials in play only. Export
 * writes what the live brand holds, values of sensitive variables included
 * when an apply sent them (docs/configuration.md, "Secrets in manifests").
 */
function credentialsOnly(ctx: CommandContext): Redaction {
  const redaction = new Redaction();
  redaction.add(credentialsInPlay(ctx).map((c) => ({ name: c.label, value: c.value })));
  return redaction;
}
