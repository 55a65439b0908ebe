// ResourceKind is a small core (what it is, its schema, its desired and live
// objects, identity, reading, the diff, gates, handlers) and capability
// interfaces for the rest, each asked for with a type guard (issue 40). These
// tests hold the model to that: the core's members are the ten listed, every
// member a kind carries beyond them belongs to a capability that has a guard,
// and no generic stage reaches a capability's member by a cast instead.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { BUILTIN_KINDS, type KindRead } from '../../src/kinds/index.js';
import { ROOT } from '../e2e/helpers.js';

const FILE = join(ROOT, 'src/kinds/resource-kind.ts');
const source = ts.createSourceFile(FILE, readFileSync(FILE, 'utf8'), ts.ScriptTarget.Latest, true);

/** Every interface of resource-kind.ts, with its members' names. */
function interfaces(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const s of source.statements) {
    if (ts.isInterfaceDeclaration(s)) out.set(s.name.text, s.members.flatMap((m) => (m.name !== undefined ? [m.name.getText(source)] : [])));
  }
  return out;
}

/** The capability interfaces: those an exported function of resource-kind.ts tests for (`kind as Partial<Name>`), i.e. that have a guard. */
function guarded(): Set<string> {
  const out = new Set<string>();
  for (const s of source.statements) {
    if (!ts.isFunctionDeclaration(s) || s.body === undefined) continue;
    for (const m of s.body.getText(source).matchAll(/Partial<(\w+)/g)) out.add(m[1] as string);
  }
  return out;
}

const CORE = ['name', 'label', 'manifest', 'desired', 'live', 'identity', 'read', 'diff', 'gates', 'handlers'];

describe('the kind model: a small core and guarded capabilities', () => {
  it("ResourceKind's core is these ten members", () => {
    expect(interfaces().get('ResourceKind')).toEqual(CORE);
  });

  it('every member a built-in kind carries beyond the core belongs to a capability with a guard', () => {
    const all = interfaces();
    const caps = guarded();
    const unguarded: string[] = [];
    for (const kind of BUILTIN_KINDS) {
      for (const member of Object.keys(kind)) {
        if (CORE.includes(member)) continue;
        const owners = [...all].filter(([name, members]) => name !== 'ResourceKind' && members.includes(member)).map(([name]) => name);
        if (!owners.some((o) => caps.has(o))) unguarded.push(`${kind.name}.${member} (${owners.join(', ') || 'in no interface'})`);
      }
    }
    expect(unguarded).toEqual([]);
  });

  it('no generic stage reaches a capability member by a cast: it asks the guard', () => {
    const all = interfaces();
    const caps = guarded();
    const members = new Set([...all].filter(([name]) => caps.has(name)).flatMap(([, m]) => m));
    const generic = ['plan', 'apply', 'report', 'render', 'graph', 'preview', 'manifest', 'cli', 'export', 'doctor', 'controller', 'policy'];
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => {
        const p = join(dir, f);
        return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
      });
    const reaches: string[] = [];
    for (const dir of generic) {
      for (const abs of files(join(ROOT, 'src', dir))) {
        const text = readFileSync(abs, 'utf8');
        for (const m of text.matchAll(/\bPartial<(\w+)/g)) if (caps.has(m[1] as string)) reaches.push(`${relative(ROOT, abs)}: Partial<${m[1]}>`);
        for (const m of text.matchAll(/\bas\s+(?:Partial<)?\{([^}]*)\}/g)) {
          for (const field of (m[1] as string).matchAll(/(\w+)\??\s*:/g)) if (members.has(field[1] as string)) reaches.push(`${relative(ROOT, abs)}: as { ${field[1]} }`);
        }
      }
    }
    expect(reaches).toEqual([]);
  });

  it('the checks see what they are for', () => {
    // A stray old-shape member is in no capability; a cast to a capability's member is found.
    const all = interfaces();
    expect([...all].some(([, m]) => m.includes('liveSection'))).toBe(false);
    expect(guarded().has('ReportsUnmanaged')).toBe(true);
    expect(guarded().has('KindIdentity')).toBe(false);
    expect('(kind as { plural?: string }).plural'.match(/\bas\s+(?:Partial<)?\{([^}]*)\}/)?.[1]).toBe(' plural?: string ');
  });

  it('a reader comes with the live section it fills, or neither is given (checked by the compiler: tsc -p tsconfig.test.json)', () => {
    const reread = async (): Promise<undefined> => undefined;
    const reader = { list: async (): Promise<unknown[]> => [] };
    const both: KindRead<unknown> = { reader, section: 'widgets', reread };
    const neither: KindRead<unknown> = { reread };
    // @ts-expect-error a reader whose section is not named would be read into nowhere
    const noSection: KindRead<unknown> = { reader, reread };
    // @ts-expect-error a section no reader fills
    const noReader: KindRead<unknown> = { section: 'widgets', reread };
    expect([both, neither, noSection, noReader].map((r) => r.section ?? '-')).toEqual(['widgets', '-', '-', 'widgets']);
    // Every built-in kind that reads has its section.
    expect(BUILTIN_KINDS.filter((k) => (k.read.reader === undefined) !== (k.read.section === undefined)).map((k) => k.name)).toEqual([]);
  });
});
