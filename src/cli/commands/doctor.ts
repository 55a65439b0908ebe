// `rcsctl doctor [paths...] [--brand ID]`: read-only checks of what rcsctl
// assumes about the service, against the configured endpoint (docs/doctor.md).
// Exit 0 when every check holds (or has nothing to look at), 1 when one differs.

import type { Command } from 'commander';
import { PERSON_ENV } from '../../api/brands.js';
import { runDoctor, type DoctorReport } from '../../doctor/checks.js';
import { brandFromManifests, brandOfAccount, type DeclaredBrandRef } from '../../doctor/choose-brand.js';
import { loadManifests } from '../../manifest/index.js';
import { connect } from '../connect.js';
import type { CommandContext } from '../context.js';
import { EXIT_ERROR, EXIT_OK } from '../exit-codes.js';
import { hintForCode } from '../hints.js';
import { rootOption, formatOption, formatValue, pathsArgument, pathsOrCwd } from '../options.js';
import { credentialsInPlay, protectSensitive } from '../secrets.js';
import { makeStyle, type Style } from '../../render/style.js';
import { requestsLine } from '../../render/plan-text.js';
import type { RequestCount } from '../../core/requests.js';

const FORMATS = ['text', 'json'] as const;

/** Register `rcsctl doctor`. */
export function registerDoctor(program: Command, ctx: CommandContext): void {
  const cmd = program
    .command('doctor')
    .description("check, read-only, what rcsctl assumes about the service against the configured endpoint (exit 0 all hold, 1 otherwise)");
  pathsArgument(cmd, 'manifests whose brand to check when --brand is left out, and where its brand key comes from (default: .)');
  cmd.option(
    '--brand <id>',
    'the brand to look at (required unless the manifests declare one brand, or RCSCTL_PERSON_ID names an account that operates one); an agency account takes its key from the manifest or RCSCTL_BRAND_KEY_<brandId with _ for . and ->',
  );
  formatOption(cmd, FORMATS, 'output format');
  cmd.action(async (paths: string[] | undefined, flags: { brand?: string; format: string; json: boolean }) => {
    const format = formatValue(flags, FORMATS);
    // The manifests are read only to name the brand and its key: `--brand` alone reads none.
    const declared = flags.brand === undefined || (paths ?? []).length > 0 ? await declaredBrands(ctx, pathsOrCwd(paths)) : [];
    const fromManifests = brandFromManifests(flags.brand, declared, ctx.io.env);
    const conn = await connect(ctx, { declared });
    const sandbox = ctx.globals().sandbox;
    const hint = (code: string): string | undefined => hintForCode(code, { sandbox });
    try {
      const brand = fromManifests ?? (await brandOfAccount(conn.client.inspect, ctx.io.env, hint));
      const account = ctx.io.env[PERSON_ENV];
      const report = await runDoctor(conn.client.inspect, conn.baseUrl, brand, account !== undefined && account !== '' ? account : undefined);
      // A check the service refused (401, 403, a wrong brand key) says what to do, as plan's errors do.
      // What the checks cost the account's rate limit, as every command's summary says (issue 38, "Cost").
      const hinted = { ...report, checks: report.checks.map((c) => withHint(c, hint)), requests: { ...conn.requests } };
      ctx.io.stdout.write(format === 'json' ? JSON.stringify(hinted, null, 2) + '\n' : renderDoctor(hinted, makeStyle(ctx.globals().color)));
      ctx.exit(report.ok ? EXIT_OK : EXIT_ERROR);
    } finally {
      await conn.close();
    }
  });
}

/** The brands `paths` declare (their manifests need not be valid: doctor only needs the id and key). */
async function declaredBrands(ctx: CommandContext, paths: string[]): Promise<DeclaredBrandRef[]> {
  const loaded = await loadManifests(paths, { env: ctx.io.env, cwd: ctx.io.cwd, credentials: credentialsInPlay(ctx), ...rootOption(ctx) });
  protectSensitive(ctx, loaded.sensitive);
  const refs = new Map<string, DeclaredBrandRef>(loaded.brands.map((b) => [b.brandId, b.brandKey !== undefined ? { brandId: b.brandId, brandKey: b.brandKey } : { brandId: b.brandId }]));
  for (const s of loaded.skipped) if (!refs.has(s.brandId)) refs.set(s.brandId, { brandId: s.brandId });
  return [...refs.values()].sort((a, b) => a.brandId.localeCompare(b.brandId));
}

function withHint<C extends DoctorReport['checks'][number]>(c: C, hint: (code: string) => string | undefined): C & { hint?: string } {
  const text = c.serviceCode !== undefined && c.status === 'differs' ? hint(c.serviceCode) : undefined;
  return text === undefined ? c : { ...c, hint: text };
}

/** The report as text: one line per check; for a difference, what was assumed, said, where it comes from, and what to do when there is a hint. */
export function renderDoctor(report: DoctorReport & { checks: { hint?: string }[]; requests?: RequestCount }, style: Style): string {
  const lines = [`rcsctl doctor: ${report.baseUrl}, brand ${report.brandId}`, ''];
  const width = Math.max(...report.checks.map((c) => c.id.length));
  for (const c of report.checks) {
    const mark = c.status === 'ok' ? style.green('ok     ') : c.status === 'differs' ? style.red('differs') : style.dim('skipped');
    lines.push(`  ${mark}  ${c.id.padEnd(width)}  ${c.title}`);
    if (c.status === 'differs') {
      lines.push(`           assumed: ${c.assumed}`);
      lines.push(`           said:    ${c.said}`);
      lines.push(`           see:     ${c.doc}`);
      if (c.hint !== undefined) lines.push(`           hint:    ${c.hint}`);
    } else {
      lines.push(`           ${c.said}`);
    }
  }
  const differ = report.checks.filter((c) => c.status === 'differs').length;
  if (report.requests !== undefined) lines.push('', requestsLine(report.requests));
  lines.push('', differ === 0 ? 'Every assumption checked holds.' : `${differ} assumption${differ === 1 ? '' : 's'} differ${differ === 1 ? 's' : ''} from what the service said.`, '');
  return lines.join('\n');
}
