// The layer rules of docs/architecture.md, as .dependency-cruiser.cjs states
// them: the real tree keeps them, and each kind of reach-around breaks the
// check with the rule's name (a tree made for the purpose in a temp folder).
// And the generic stages name no kind.

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ts from 'typescript';
import { BUILTIN_KINDS, isPlural, previewOf } from '../src/kinds/index.js';
import { ROOT } from './e2e/helpers.js';

const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** Run dependency-cruiser with the project's rules over `paths` in `cwd`, as `npm run lint:layers` does (`err` output), or for its JSON report. */
function run(cwd: string, paths: string[], outputType: 'err' | 'json'): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [DEPCRUISE, '--config', CONFIG, '--output-type', outputType, ...paths], { cwd, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : -1, stdout, stderr });
    });
  });
}

/** The violations dependency-cruiser reports over `paths` in `cwd`. */
async function cruise(cwd: string, paths: string[]): Promise<Violation[]> {
  if (!existsSync(DEPCRUISE)) throw new Error('dependency-cruiser is not installed: run npm install (it is a devDependency)');
  const r = await run(cwd, paths, 'json');
  try {
    return (JSON.parse(r.stdout) as { summary: { violations: Violation[] } }).summary.violations;
  } catch {
    throw new Error(`dependency-cruiser gave no report (exit ${r.code}): ${r.stderr}`);
  }
}

const described = (violations: Violation[]): string[] => violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);

describe('layer rules (dependency-cruiser)', () => {
  it('hold on the real tree', async () => {
    expect(described(await cruise(ROOT, ['src', 'scripts', 'bench', 'bin']))).toEqual([]);
  }, 120_000);

  describe('fail on a reach-around', () => {
    let dir: string;
    const file = (path: string, text: string): void => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    // One file per broken rule, and the modules they reach for.
    const reaches: [rule: string, from: string, importing: string][] = [
      ['core-at-the-bottom', 'src/core/reach.ts', '../plan/build-plan.js'],
      ['only-bin-imports-cli', 'src/plan/reach.ts', '../cli/main.js'],
      ['render-imports-no-cli', 'src/render/reach.ts', '../cli/progress.js'],
      ['no-command-imports-another', 'src/cli/commands/apply.ts', './plan.js'],
      ['kinds-import-no-stage', 'src/kinds/logo/reach.ts', '../../apply/execute.js'],
      ['stages-reach-kinds-through-the-registry', 'src/report/reach.ts', '../kinds/logo/kind.js'],
      ['emulator-shares-only-the-contract', 'src/emulator/reach.ts', '../api/transport.js'],
      ['plan-below-apply-and-report', 'src/plan/reach-apply.ts', '../apply/execute.js'],
      ['manifest-building-blocks-know-no-kind', 'src/manifest/source.ts', '../kinds/index.js'],
      ['controller-is-a-driver', 'src/controller/reach.ts', '../cli/progress.js'],
      ['no-stage-imports-the-controller', 'src/apply/reach-controller.ts', '../controller/index.js'],
      // Two modules of one layer importing each other; cycle-b's half is type-only, which counts.
      ['no-cycle', 'src/emulator/cycle-a.ts', './cycle-b.js'],
    ];
    let violations: Violation[];

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'rcsctl-layers-'));
      file('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
      for (const target of ['src/plan/build-plan.ts', 'src/cli/main.ts', 'src/cli/progress.ts', 'src/cli/commands/plan.ts', 'src/apply/execute.ts', 'src/kinds/logo/kind.ts', 'src/api/transport.ts', 'src/kinds/index.ts', 'src/cli/options.ts', 'src/controller/index.ts', 'src/plan/plan-brands.ts']) {
        file(target, 'export const x = 1;\n');
      }
      for (const [, from, importing] of reaches) file(from, `import { x } from '${importing}';\nexport const y = x;\n`);
      file('src/emulator/cycle-b.ts', "import type { y } from './cycle-a.js';\nexport const x = 1;\nexport type Y = typeof y;\n");
      // Allowed: a command using the CLI's shared modules; a stage using the registry.
      file('src/cli/commands/show.ts', "import { x } from '../options.js';\nexport const y = x;\n");
      file('src/report/allowed.ts', "import { x } from '../kinds/index.js';\nexport const y = x;\n");
      file('src/controller/allowed.ts', "import { x } from '../plan/plan-brands.js';\nexport const y = x;\n");
      violations = await cruise(dir, ['src']);
    }, 120_000);

    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('fails the check as `npm run lint:layers` runs it: exit non-zero, naming the rule', async () => {
      const r = await run(dir, ['src'], 'err');
      expect(r.code).not.toBe(0);
      expect(r.stdout).toContain('error no-command-imports-another: src/cli/commands/apply.ts → src/cli/commands/plan.ts');
    }, 120_000);

    it.each(reaches)('%s: %s importing %s', (rule, from, importing) => {
      const to = join(dirname(from), importing).replace(/\.js$/, '.ts');
      expect(described(violations)).toContain(`${rule}: ${from} → ${to}`);
    });

    it('lets the allowed imports through', () => {
      const allowed = violations.filter((v) => v.from === 'src/cli/commands/show.ts' || v.from === 'src/report/allowed.ts' || v.from === 'src/controller/allowed.ts');
      expect(allowed).toEqual([]);
    });
  });
});

describe('generic stages name no kind', () => {
  // What differs between kinds is a declared property of the kind (src/kinds/resource-kind.ts):
  // a kind's name as a string literal, or the start of an address (`autoReply.${key}`), in a
  // generic stage is a per-kind switch creeping back; so is reaching for a kind's section of
  // a brand by its name (`brand.autoReplies`) instead of through the kind, naming a section
  // as a string (`'templates'`), or a section's name as a word of code (`autoReplies`,
  // `templates`: a variable or a message about one kind).
  const names = BUILTIN_KINDS.map((k) => k.name);
  const sections = [...new Set(BUILTIN_KINDS.flatMap((k) => [k.manifest?.section, k.read.section]).filter((x): x is string => x !== undefined))];
  // Section names that are also plain words of code elsewhere (`files` of a load) are caught as strings and accesses only.
  const words = sections.filter((s) => s !== 'files');
  const literal = new RegExp(
    `(['"\`])(${names.join('|')})(\\1|\\.)|<ref:(${names.join('|')}):|\\b(brand|desired|live)\\??\\.(${sections.join('|')})\\b|(['"\`])(${sections.join('|')})\\7|\\b(${words.join('|')})\\b`,
  );
  const dirs = ['src/plan', 'src/apply', 'src/report', 'src/render', 'src/graph', 'src/preview', 'src/manifest', 'src/cli', 'src/cli/commands', 'src/export', 'src/doctor', 'src/controller', 'src/policy'];
  const generic = dirs.flatMap((d) => readdirSync(join(ROOT, d)).filter((f) => f.endsWith('.ts') && !f.endsWith('.generated.ts')).map((f) => `${d}/${f}`));
  // Lines that match and are not a kind: each with the reason.
  const allowed: { path: string; line: RegExp; why: string }[] = [
    ...['drift', 'graph', 'plan', 'render', 'report', 'show', 'validate'].map((command) => ({
      path: `src/cli/commands/${command}.ts`,
      line: /outOption\((cmd|merge), 'file', /,
      why: "`--out FILE`: the option's value is a file name, not the kind",
    })),
    {
      path: 'src/export/build-manifest.ts',
      line: /cleaned === '' \? 'file' : cleaned/,
      why: "the stem of an image's local name when nothing of its live name is left (`file.png`), not the kind",
    },
    {
      path: 'src/manifest/schema-check.ts',
      line: /path\.includes\('persistentMenu'\)/,
      why: "a room's `persistentMenu:` key in the manifest (a field of the chatbots section, read to word a schema error), not the kind",
    },
    {
      path: 'src/preview/site.ts',
      line: /<div class="layout">/,
      why: "the preview page's CSS grid (its columns), named `layout` before the layout kind was, not the kind",
    },
    {
      path: 'src/manifest/schema-check.ts',
      line: /keys\.includes\('autoReply'\)/,
      why: "a reply's `autoReply:` key in the manifest (the handle it opens), named in a schema error, not the kind",
    },
  ];
  const unexplained = (path: string, line: string): boolean => !allowed.some((a) => a.path === path && a.line.test(line));

  it.each(generic)('%s', (path) => {
    const code = readFileSync(join(ROOT, path), 'utf8')
      .split('\n')
      .map((line, i) => ({ line: line.replace(/\/\*.*?\*\//g, '').replace(/\/\/.*$/, ''), at: `${path}:${i + 1}` }))
      .filter(({ line }) => !/^\s*\*/.test(line));
    expect(code.filter(({ line }) => literal.test(line) && unexplained(path, line)).map(({ at, line }) => `${at}: ${line.trim()}`)).toEqual([]);
  });

  it('every allowed line still exists (a stale exception hides nothing)', () => {
    for (const a of allowed) expect(readFileSync(join(ROOT, a.path), 'utf8').split('\n').some((l) => a.line.test(l) && literal.test(l)), `${a.path}: ${a.line}`).toBe(true);
  });

  it('the check catches each form it is for', () => {
    for (const line of ["if (kind === 'autoReply')", 'nodes.push(id(`file.${f.handle}`))', "'<ref:chatbot:x>'", 'for (const a of brand.autoReplies.values())', 'live?.chatbots[0]', "section === 'templates'", 'const autoReplies = list()', "'change templates first'"]) {
      expect(literal.test(line), line).toBe(true);
    }
    expect(literal.test("label: 'auto-reply'")).toBe(false);
    expect(literal.test('return { files: loaded.files }')).toBe(false);
  });
});

describe('the preview composes the kinds\' drawings by role, naming none of them', () => {
  // What a handset shows is open to kinds (issue 40): each brings its drawing
  // (`preview`, src/kinds/handset.ts) and src/preview composes its parts by
  // their roles (page, partOf, avatar, files, change). A role of one kind's
  // drawing as a string in src/preview (the closed set it replaced: `'menu'`,
  // `'profile'`, `'home'`…; or a section, an anchor, a noun a kind brings:
  // `'rooms'`, `'ar'`, `'auto-reply'`) is a switch on that kind creeping back.
  const closed = ['message', 'room', 'menu', 'profile', 'image', 'home'];
  const brought = BUILTIN_KINDS.flatMap((k) => {
    const p = previewOf(k);
    return [p?.page?.id, p?.page?.anchor, p?.page?.heading, p?.page?.toc, p?.change?.noun].filter((x): x is string => x !== undefined);
  });
  const roles = [...new Set([...closed, ...brought])];
  const escape = (w: string): string => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const literal = new RegExp(`(['"\`])(${roles.map(escape).join('|')})\\1`);
  const files = readdirSync(join(ROOT, 'src/preview')).filter((f) => f.endsWith('.ts')).map((f) => `src/preview/${f}`);
  // Lines that hold such a word and are not a kind's role: each with the reason.
  const allowed: { path: string; line: RegExp; why: string }[] = [
    { path: 'src/preview/site.ts', line: /^<div class="layout">$/, why: "the page's CSS grid (its columns), named `layout` before the layout kind's noun was, not the kind" },
  ];
  const unexplained = (path: string, line: string): boolean => !allowed.some((a) => a.path === path && a.line.test(line.trim()));

  it('knows the roles the built-in kinds bring', () => {
    expect(brought).toEqual(expect.arrayContaining(['rooms', 'room', 'replies', 'ar', 'home', 'auto-reply', 'menu']));
  });

  it.each(files)('%s', (path) => {
    const code = readFileSync(join(ROOT, path), 'utf8')
      .split('\n')
      .map((line, i) => ({ line: line.replace(/\/\*.*?\*\//g, '').replace(/\/\/.*$/, ''), at: `${path}:${i + 1}` }))
      .filter(({ line }) => !/^\s*\*/.test(line));
    expect(code.filter(({ line }) => literal.test(line) && unexplained(path, line)).map(({ at, line }) => `${at}: ${line.trim()}`)).toEqual([]);
  });

  it('every allowed line still exists and still holds such a word', () => {
    for (const a of allowed) expect(readFileSync(join(ROOT, a.path), 'utf8').split('\n').some((l) => a.line.test(l.trim()) && literal.test(l)), `${a.path}: ${a.line}`).toBe(true);
  });

  it('the check catches each form it is for', () => {
    for (const line of ["if (shown.handset === 'menu')", 'shownAs(objects, "profile")', "handsetsIn(view, 'rooms')", "key: `ar`", "count(n, 'auto-reply')"]) expect(literal.test(line), line).toBe(true);
    expect(literal.test("section.id === page.id")).toBe(false);
    expect(literal.test("'Rooms and every page'")).toBe(false);
  });
});

describe('the shared nouns (src/core) hold no closed union of kind-specific variants', () => {
  // A string literal in a type of src/core is a member of a closed union every
  // stage switches on (`op: 'create'`, `type: 'blocked'`). One that is a kind's
  // word (`'menu-replace'`, `'autoReply'`, `'profile'`) is one kind's mechanics
  // in the shared vocabulary: it belongs in the kind's handlers or its
  // capabilities (issue 40). The words of the kinds: their names, labels and
  // sections, split into words (`persistentMenu` → persistent, menu).
  const split = (s: string): string[] =>
    s
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 0);
  const kindWords = new Set(
    BUILTIN_KINDS.flatMap((k) => [k.name, k.label, isPlural(k) ? k.plural : undefined, k.manifest?.section, k.read.section].filter((x): x is string => x !== undefined).flatMap(split)),
  );
  // Plurals of the kinds' words are their words too (`rooms`, `files`).
  const kindWord = (w: string): boolean => [w, w.replace(/s$/, ''), w.replace(/es$/, '')].some((x) => kindWords.has(x));

  /** The string literals of every type written in `text` (union members, discriminants, record keys). */
  function typeLiterals(text: string): string[] {
    const source = ts.createSourceFile('core.ts', text, ts.ScriptTarget.Latest, true);
    const out: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)) out.push(node.literal.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
    return out;
  }
  const kindSpecific = (literals: string[]): string[] => literals.filter((l) => split(l).some(kindWord));
  const core = readdirSync(join(ROOT, 'src/core')).filter((f) => f.endsWith('.ts'));

  it.each(core)('src/core/%s', (file) => {
    expect(kindSpecific(typeLiterals(readFileSync(join(ROOT, 'src/core', file), 'utf8')))).toEqual([]);
  });

  it("a step's operations are the ones every kind shares", () => {
    // upload: any kind whose object is a content-addressed file; link: the second half of any create its kind splits out of a reference cycle (splitLinks).
    const text = readFileSync(join(ROOT, 'src/core/step.ts'), 'utf8');
    const ops = [...text.matchAll(/^\s*op: ('[^']*'(?:\s*\|\s*'[^']*')*);/gm)].flatMap((m) => typeLiterals(`type T = ${m[1]};`));
    expect(ops.sort()).toEqual(['create', 'delete', 'link', 'update', 'upload']);
  });

  it('the check catches each form it is for', () => {
    expect(kindSpecific(typeLiterals("interface S { op: 'menu-replace'; method: 'POST' | 'PUT' }"))).toEqual(['menu-replace']);
    expect(kindSpecific(typeLiterals("type Handset = 'message' | 'room' | 'profile' | 'home';"))).toEqual(['room', 'profile']);
    expect(kindSpecific(typeLiterals("type K = Record<'autoReply' | 'logos' | 'rooms', number>;"))).toEqual(['autoReply', 'logos', 'rooms']);
    expect(kindSpecific(typeLiterals("type G = { type: 'none' } | { type: 'blocked'; state: string };"))).toEqual([]);
  });
});
