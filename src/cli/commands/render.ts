// `rcsctl render [paths...]`: each brand's effective manifest (bases,
// overrides, variables and generator rows resolved), offline, as YAML or
// JSON; `--explain ADDRESS` says, field by field, which file and line set each
// value. Secrets stay `(sensitive)`: every byte goes through the output guard.

import { resolve } from 'node:path';
import type { Command } from 'commander';
import { RcsctlError } from '../../errors.js';
import { KINDS } from '../../kinds/index.js';
import { effectiveManifest, explainResource, hasErrors, loadManifests, renderDiagnostics, type Explained } from '../../manifest/index.js';
import { yamlLib } from '../../manifest/yaml-lib.js';
import type { CommandContext } from '../context.js';
import { credentialsInPlay, protectSensitive } from '../secrets.js';
import { EXIT_OK } from '../exit-codes.js';
import { brandOption, formatOption, formatValue, outOption, outValue, pathsArgument, pathsOrCwd, rootOption } from '../options.js';
import { writeOutputFile } from '../../util/output-file.js';

const FORMATS = ['yaml', 'json'] as const;

interface RenderOptions {
  format: string;
  json: boolean;
  out?: string;
  output?: string;
  brand?: string[];
  explain?: string;
}

/** Register `rcsctl render`. */
export function registerRender(program: Command, ctx: CommandContext): void {
  const cmd = program.command('render').description("print each brand's effective manifest, bases, overrides, variables and generated brands resolved (offline)");
  pathsArgument(cmd);
  outOption(cmd, 'file', 'write it to FILE instead of stdout');
  formatOption(cmd, FORMATS, 'output format', 'yaml');
  brandOption(cmd, 'render only this brand');
  cmd.option('--explain <address>', 'for each field of one resource (its address as plan shows it: KIND.KEY), the file and line that set it: the brand, a base, an override, a variable or a generator row');
  cmd.action(async (paths: string[] | undefined, opts: RenderOptions) => {
    const format = formatValue(opts, FORMATS);
    const out = outValue(opts);
    const { io } = ctx;
    const loaded = await loadManifests(pathsOrCwd(paths), { env: io.env, cwd: io.cwd, credentials: credentialsInPlay(ctx), keepDocs: true, ...rootOption(ctx) });
    protectSensitive(ctx, loaded.sensitive);
    if (loaded.diagnostics.length > 0) io.stderr.write(renderDiagnostics(loaded.diagnostics, { color: ctx.globals().color, cwd: io.cwd, verbose: ctx.globals().verbose === true }));
    if (hasErrors(loaded.diagnostics)) throw new RcsctlError('E_MANIFEST', 'the manifests have errors: fix them first (rcsctl validate)');
    const docs = loaded.docs ?? new Map();
    const only = opts.brand ?? [];
    const missing = only.filter((id) => !docs.has(id));
    if (missing.length > 0) throw new RcsctlError('E_NO_BRAND', `no brand ${missing.join(', ')} in the manifests (they declare ${[...docs.keys()].sort().join(', ')})`);
    const brands = [...docs.keys()].filter((id) => only.length === 0 || only.includes(id)).sort();
    let text: string;
    if (opts.explain !== undefined) {
      const { section, key } = address(opts.explain);
      const found = brands.map((id) => ({ brandId: id, fields: explainResource(docs.get(id) ?? [], section, key) })).filter((b) => b.fields !== undefined) as { brandId: string; fields: Explained[] }[];
      if (found.length === 0) throw new RcsctlError('E_USAGE', `no brand declares ${opts.explain}`);
      text = format === 'json' ? JSON.stringify(found, null, 2) + '\n' : found.map((b) => explainText(b.brandId, opts.explain as string, b.fields)).join('\n');
    } else {
      const manifests = brands.map((id) => effectiveManifest(id, docs.get(id) ?? []));
      text = format === 'json' ? JSON.stringify(manifests, null, 2) + '\n' : manifests.map((m) => yamlLib().stringify(m, { lineWidth: 0 })).join('---\n');
    }
    if (out === undefined) io.stdout.write(text);
    else {
      writeOutputFile(resolve(io.cwd, out), text, ctx.redaction);
      io.stdout.write(`Wrote ${brands.length} brand${brands.length === 1 ? '' : 's'} to ${out}.\n`);
    }
    ctx.exit(EXIT_OK);
  });
}

/** `autoReply.welcome` → the kind's section and the key. */
function address(text: string): { section: string; key: string } {
  const dot = text.indexOf('.');
  const kind = KINDS.find((k) => k.name === text.slice(0, dot));
  const section = kind?.manifest?.section;
  if (dot <= 0 || section === undefined) {
    const names = KINDS.filter((k) => k.manifest?.section !== undefined).map((k) => k.name);
    throw new RcsctlError('E_USAGE', `--explain takes an address KIND.KEY, as plan shows them (${names.map((n) => `${n}.…`).join(', ')}); not "${text}"`);
  }
  return { section, key: text.slice(dot + 1) };
}

function explainText(brandId: string, addr: string, fields: Explained[]): string {
  const lines = [`${brandId} ${addr}:`];
  for (const f of fields) {
    const from = f.variables.map((v) => `\${var:${v.name}} from ${v.at.file}:${v.at.line} (${v.at.how})`).join(', ');
    lines.push(`  ${f.path.split('/').slice(3).join('.') || '(whole)'} = ${JSON.stringify(f.value)}`);
    lines.push(`      set at ${f.at.file}:${f.at.line}:${f.at.col} (${f.at.how})${from !== '' ? `; ${from}` : ''}`);
  }
  return lines.join('\n') + '\n';
}
