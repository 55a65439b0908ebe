// The pure parts of the drift report: state findings at their thresholds, and
// the renderers on a hand-made report with hostile strings (escaping, JUnit
// well-formedness, the JSON schema). The troubleshooting page has a section
// for every finding code.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import formatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { AgencyFileInfo, ChatbotDetail, Logo } from '../../src/api/types.js';
import { makeStyle } from '../../src/render/style.js';
import { renderDriftJson } from '../../src/render/drift-json.js';
import { renderDriftJunit } from '../../src/render/drift-junit.js';
import { renderDriftMarkdown } from '../../src/render/drift-markdown.js';
import { renderDriftText } from '../../src/render/drift-text.js';
import { finding, helpAnchor, helpLink } from '../../src/core/finding.js';
import { DOCS_URL, docsBase, docsUrlFromHomepage } from '../../src/version.js';
import { agencyFileFindings } from '../../src/kinds/agency-file/findings.js';
import { chatbotFindings } from '../../src/kinds/chatbot/findings.js';
import { logoFindings } from '../../src/kinds/logo/findings.js';
import { DEFAULT_DRIFT_OPTIONS, type DriftReport, type FindingCode } from '../../src/report/types.js';
import { formatServiceTime } from '../../src/util/time.js';
import { checkJunit } from './xml-check.js';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2026-11-21T01:00:00.000Z');
const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'drift-report.schema.json'), 'utf8')) as { definitions: { finding: { properties: { code: { enum: string[] } } } } };
const CODES = schema.definitions.finding.properties.code.enum as FindingCode[];

function agency(expiry: Date, status = 'ready'): AgencyFileInfo {
  return { fileId: 'BR.x.f', usageType: 'send', mimeType: 'image/png', status, expiryDate: formatServiceTime(expiry) };
}

describe('agency file window', () => {
  const opts = { ...DEFAULT_DRIFT_OPTIONS, expiryWarningDays: 30 };
  it('warns at exactly the threshold, not a day before it', () => {
    expect(agencyFileFindings('a', agency(new Date(NOW.getTime() + 30 * DAY)), NOW, opts).map((f) => [f.code, f.daysLeft])).toEqual([['AGENCY_FILE_EXPIRING', 30]]);
    expect(agencyFileFindings('a', agency(new Date(NOW.getTime() + 31 * DAY)), NOW, opts)).toEqual([]);
  });
  it('is expired at the end of the window, or when the service says so', () => {
    expect(agencyFileFindings('a', agency(NOW), NOW, opts)[0]?.code).toBe('AGENCY_FILE_EXPIRED');
    expect(agencyFileFindings('a', agency(new Date(NOW.getTime() + 99 * DAY), 'expired'), NOW, opts)[0]?.code).toBe('AGENCY_FILE_EXPIRED');
    expect(agencyFileFindings('a', agency(new Date(NOW.getTime() + 1)), NOW, opts)[0]?.code).toBe('AGENCY_FILE_EXPIRING');
  });
});

describe('review findings', () => {
  const room = (state: string, updated: Date | string, reason: string | null = null) =>
    ({ chatbotId: '021', subTitle: 'Shop', approvalResult: state, approvalReason: reason, updateDate: typeof updated === 'string' ? updated : formatServiceTime(updated) }) as ChatbotDetail;
  it('a wait of exactly --review-warning days is info; one day more is a warning', () => {
    const opts = { ...DEFAULT_DRIFT_OPTIONS, reviewWarningDays: 14 };
    expect(chatbotFindings('c', room('승인대기', new Date(NOW.getTime() - 14 * DAY)), NOW, opts)[0]).toMatchObject({ severity: 'info', ageDays: 14 });
    expect(chatbotFindings('c', room('승인대기(수정)', new Date(NOW.getTime() - 15 * DAY)), NOW, opts)[0]).toMatchObject({ severity: 'warning', ageDays: 15 });
  });
  it('검수시작(수정) is a logo state, not a room state: no review-pending finding for a room', () => {
    const old = new Date(NOW.getTime() - 15 * DAY);
    expect(chatbotFindings('c', room('검수시작(수정)', old), NOW, DEFAULT_DRIFT_OPTIONS).map((f) => f.code)).not.toContain('ROOM_REVIEW_PENDING');
    const logo = { fileId: 'BLG-1', name: 'Logo', approvalResult: '검수시작(수정)', approvalReason: null, updateDate: formatServiceTime(old) } as unknown as Logo;
    expect(logoFindings('l', logo, true, NOW, DEFAULT_DRIFT_OPTIONS)[0]?.code).toBe('LOGO_REVIEW_PENDING');
  });
  it('an unreadable date gives no age rather than a wrong one', () => {
    const f = chatbotFindings('c', room('승인대기', 'yesterday'), NOW, DEFAULT_DRIFT_OPTIONS)[0];
    expect(f?.ageDays).toBeUndefined();
    expect(f?.message).toContain('for an unknown time');
  });
  it('approved rooms have no finding; rejected ones carry the reason, or say there was none', () => {
    expect(chatbotFindings('c', room('승인', NOW), NOW, DEFAULT_DRIFT_OPTIONS)).toEqual([]);
    expect(chatbotFindings('c', room('반려', NOW), NOW, DEFAULT_DRIFT_OPTIONS)[0]?.message).toContain('(no reason given)');
  });
  it('LOGO_NOT_APPROVED only for a declared logo in 저장', () => {
    const logo = { fileId: 'L1', name: 'Main', approvalResult: '저장', approvalReason: null, updateDate: formatServiceTime(NOW) } as Logo;
    expect(logoFindings('logo.main', logo, true, NOW, DEFAULT_DRIFT_OPTIONS).map((f) => f.code)).toEqual(['LOGO_NOT_APPROVED']);
    expect(logoFindings('logo.L1', logo, false, NOW, DEFAULT_DRIFT_OPTIONS)).toEqual([]);
    expect(logoFindings('logo.main', { ...logo, approvalResult: '반려(수정)' }, true, NOW, DEFAULT_DRIFT_OPTIONS)[0]?.message).toContain('earlier approved version stays live');
  });
});

describe('renderers on hostile text', () => {
  const nasty = 'a|b <script>&amp; "q" \u0001 ]]> `x` ```';
  const report: DriftReport = {
    version: 1,
    rcsctlVersion: '0.0.0',
    generatedAt: NOW.toISOString(),
    options: DEFAULT_DRIFT_OPTIONS,
    clean: false,
    summary: { resources: 2, inSync: 1, changed: 1, missing: 0, unmanaged: 0, errors: 0, warnings: 1, infos: 1, brands: 1, failedBrands: 0 },
    brands: [
      {
        brandId: 'BR.0000000001',
        clean: false,
        summary: { resources: 2, inSync: 1, changed: 1, missing: 0, unmanaged: 0, errors: 0, warnings: 1, infos: 1 },
        problems: [],
        notes: [],
        resources: [
          {
            address: 'autoReply.x',
            kind: 'autoReply',
            name: nasty,
            liveId: 'ARM1',
            status: 'managed',
            findings: [
              finding('DRIFT_CHANGED', 'warning', 'autoReply.x', `"${nasty}" differs`, 'apply', {
                changes: [{ path: 'body.description', type: 'change', before: nasty, after: 'ok' }],
              }),
              finding('AUTO_REPLY_SAVED', 'info' as never, 'autoReply.x', 'note', 'none'),
            ],
          },
          { address: 'chatbot.1', kind: 'chatbot', name: 'room', liveId: '1', status: 'managed', findings: [] },
        ],
      },
    ],
  };

  it('JUnit stays well-formed, with one testcase per resource and the text intact', () => {
    const cases = checkJunit(renderDriftJunit(report));
    expect(cases.map((c) => [c.name, c.failed])).toEqual([
      ['autoReply.x', true],
      ['chatbot.1', false],
    ]);
    expect(cases[0]?.body).toContain('a|b <script>&amp; "q"  ]]>');
  });

  it('Markdown escapes HTML and table pipes, and cannot be closed by a fence inside a value', () => {
    const md = renderDriftMarkdown(report);
    // Outside code blocks no raw HTML survives (inside them it is shown, not rendered).
    expect(md.replace(/^```diff\n[\s\S]*?^```$/m, '')).not.toContain('<script>');
    expect(md).toContain('a\\|b &lt;script&gt;');
    const fenceLines = md.split('\n').filter((l) => l.startsWith('```'));
    expect(fenceLines).toEqual(['```diff', '```']);
    // The brand's collapsed block, and in it the resource's.
    expect(md.match(/<details>/g)).toHaveLength(2);
    expect(md.match(/<\/details>/g)).toHaveLength(2);
  });

  it('Markdown for a huge drift stays under the comment size limit and says how much it left out', () => {
    const many = structuredClone(report);
    const brand = many.brands[0]!;
    const template = brand.resources[0]!;
    brand.resources = Array.from({ length: 2000 }, (_, i) => ({ ...structuredClone(template), address: `autoReply.r${i}` }));
    const md = renderDriftMarkdown(many);
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(60_000);
    // The brand's block keeps the resources that fit, counts the others, and the comment says where the rest is.
    const shown = (md.match(/<details>/g)?.length ?? 0) - 1;
    expect(shown).toBeGreaterThan(10);
    expect(md).toContain(`_${2000 - shown} more left out here (in the full report, below)._`);
    expect(md).toContain("**Left out to keep this comment within 60000 bytes:** the drift details of 1 brand (in part or whole). The full report: the job's output (`rcsctl drift --format json` or `--format junit`).");
    expect(md.match(/<details>/g)?.length).toBe(md.match(/<\/details>/g)?.length);
    const small = renderDriftMarkdown(many, { maxBytes: 5000, fullReport: 'https://ci.example/artifacts/42' });
    expect(Buffer.byteLength(small)).toBeLessThanOrEqual(5000);
    expect(small).toContain('The full report: [https://ci.example/artifacts/42](https://ci.example/artifacts/42).');
  });

  it('JSON is valid against the schema; text shows the change', () => {
    const ajv = (formatsModule as unknown as (a: Ajv) => Ajv)(new Ajv({ strict: true }));
    const validate = ajv.compile(schema);
    expect(validate(JSON.parse(renderDriftJson(report))), ajv.errorsText(validate.errors)).toBe(true);
    expect(validate({ ...report, version: 2 })).toBe(false);
    const text = renderDriftText(report, makeStyle(false));
    expect(text).toContain('~ body.description:');
    expect(text).toMatch(/^Drift: 1 changed, 0 missing, 0 unmanaged; 0 errors, 1 warning, 1 info \(2 resources, 1 in sync\)\.$/m);
  });
});

describe('docs/troubleshooting.md', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'troubleshooting.md'), 'utf8');
  it('has a section, with what it means and what to do, for every finding code in the schema', () => {
    expect(CODES.length).toBe(31);
    for (const code of CODES) {
      const section = doc.split(/^## /m).find((s) => s.startsWith(`${code}\n`));
      expect(section, code).toBeDefined();
      expect(section).toContain('**What it means.**');
      expect(section).toContain('**What to do.**');
      // GitHub's anchor for "## CODE" is the code in lower case.
      expect(helpAnchor(code)).toBe(`troubleshooting.md#${code.toLowerCase()}`);
    }
  });
});

describe('help links', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { homepage: string };
  it('are absolute, built from package.json homepage (the docs folder on main)', () => {
    expect(pkg.homepage).toBe('https://github.com/rcsctl/rcsctl#readme');
    expect(DOCS_URL).toBe('https://github.com/rcsctl/rcsctl/blob/main/docs/');
    expect(docsUrlFromHomepage('https://git.example.com/team/rcsctl/')).toBe('https://git.example.com/team/rcsctl/blob/main/docs/');
    expect(finding('DRIFT_CHANGED', 'warning', 'autoReply.hours', 'm', 'a').help).toBe('https://github.com/rcsctl/rcsctl/blob/main/docs/troubleshooting.md#drift_changed');
    expect(helpLink('LOGO_REJECTED', docsBase('https://mirror.example/rcs/docs'))).toBe('https://mirror.example/rcs/docs/troubleshooting.md#logo_rejected');
  });
  it('--docs-url must be an absolute http(s) URL', () => {
    expect(() => docsBase('docs/')).toThrow(/absolute http\(s\) URL/);
    expect(() => docsBase('file:///tmp/docs')).toThrow(/http\(s\) URL/);
    expect(docsBase(undefined)).toBe(DOCS_URL);
  });
});
