// `rcsctl doctor --brand ID`: read-only checks of what rcsctl assumes about
// the service, against the configured endpoint (docs/doctor.md). Exit 0 when
// every check holds (or has nothing to look at), 1 when one differs.

import type { Command } from 'commander';
import { runDoctor, type DoctorReport } from '../../doctor/checks.js';
import { connect } from '../connect.js';
import type { CommandContext } from '../context.js';
import { EXIT_ERROR, EXIT_OK } from '../exit-codes.js';
import { formatOption, formatValue } from '../options.js';
import { makeStyle, type Style } from '../../render/style.js';
import { brandKeyFromEnv } from '../../apply/apply-brands.js';

const FORMATS = ['text', 'json'] as const;

/** Register `rcsctl doctor`. */
export function registerDoctor(program: Command, ctx: CommandContext): void {
  const cmd = program
    .command('doctor')
    .description("check, read-only, what rcsctl assumes about the service against the configured endpoint (exit 0 all hold, 1 otherwise)")
    .requiredOption('--brand <id>', 'the brand to look at; an agency account takes its key from RCSCTL_BRAND_KEY_<brandId with _ for . and ->');
  formatOption(cmd, FORMATS, 'output format');
  cmd.action(async (flags: { brand: string; format: string; json: boolean }) => {
    const format = formatValue(flags, FORMATS);
    const conn = await connect(ctx);
    try {
      const report = await runDoctor(conn.client.inspect, conn.baseUrl, brandKeyFromEnv(flags.brand, ctx.io.env));
      ctx.io.stdout.write(format === 'json' ? JSON.stringify(report, null, 2) + '\n' : renderDoctor(report, makeStyle(ctx.globals().color)));
      ctx.exit(report.ok ? EXIT_OK : EXIT_ERROR);
    } finally {
      await conn.close();
    }
  });
}

/** The report as text: one line per check; for a difference, what was assumed, said, and where it comes from. */
export function renderDoctor(report: DoctorReport, style: Style): string {
  const lines = [`rcsctl doctor: ${report.baseUrl}, brand ${report.brandId}`, ''];
  const width = Math.max(...report.checks.map((c) => c.id.length));
  for (const c of report.checks) {
    const mark = c.status === 'ok' ? style.green('ok     ') : c.status === 'differs' ? style.red('differs') : style.dim('skipped');
    lines.push(`  ${mark}  ${c.id.padEnd(width)}  ${c.title}`);
    if (c.status === 'differs') {
      lines.push(`           assumed: ${c.assumed}`);
      lines.push(`           said:    ${c.said}`);
      lines.push(`           see:     ${c.doc}`);
    } else {
      lines.push(`           ${c.said}`);
    }
  }
  const differ = report.checks.filter((c) => c.status === 'differs').length;
  lines.push('', differ === 0 ? 'Every assumption checked holds.' : `${differ} assumption${differ === 1 ? '' : 's'} differ${differ === 1 ? 's' : ''} from what the service said.`, '');
  return lines.join('\n');
}
