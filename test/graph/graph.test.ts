// `rcsctl graph`: the brand and a plan's steps as Mermaid and DOT. The DOT
// output is parsed by a DOT parser (@ts-graphviz/ast) and compared with the
// model, hostile names included. The Mermaid output is parsed by Mermaid
// itself in test/preview/browser.test.ts (Mermaid needs a DOM).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, type ASTNode } from '@ts-graphviz/ast';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandGraph, dotText, mermaidText, planGraph, renderDot, renderMermaid, type Cluster } from '../../src/graph/graph.js';
import { loadManifests } from '../../src/manifest/index.js';
import type { DesiredBrand } from '../../src/manifest/types.js';
import type { PlanFile } from '../../src/plan/types.js';
import { cli, EXAMPLE, ROOT } from '../e2e/helpers.js';

/** Nodes (with their label) and edges (with theirs) of a parsed DOT graph, subgraphs included. */
function readDot(text: string): { nodes: Map<string, string>; edges: [string, string, string | undefined][] } {
  const nodes = new Map<string, string>();
  const edges: [string, string, string | undefined][] = [];
  const attr = (n: { children: ASTNode[] }, key: string): string | undefined => {
    const a = n.children.find((c): c is Extract<ASTNode, { type: 'Attribute' }> => c.type === 'Attribute' && c.key.value === key);
    return a?.value.value;
  };
  const walk = (n: ASTNode): void => {
    if (n.type === 'Node') nodes.set(n.id.value, attr(n, 'label') ?? '');
    else if (n.type === 'Edge') {
      const [from, to] = n.targets.map((t) => ('id' in t ? t.id.value : ''));
      edges.push([from ?? '', to ?? '', attr(n, 'label')]);
    }
    if ('children' in n) for (const c of n.children as ASTNode[]) walk(c);
  };
  walk(parse(text));
  return { nodes, edges };
}

let brand: DesiredBrand;
let dir: string;
beforeAll(async () => {
  brand = (await loadManifests([EXAMPLE], { env: {}, cwd: ROOT })).brands[0] as DesiredBrand;
  dir = mkdtempSync(join(tmpdir(), 'rcsctl-graph-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the brand graph', () => {
  it('has every resource and every link: replies, menu items, images, the room and its menu', () => {
    const g = brandGraph(brand);
    expect(g.nodes).toHaveLength(13);
    const edge = (from: string, to: string): string | undefined => g.edges.find((e) => e.from === `BR.demo000001/${from}` && e.to === `BR.demo000001/${to}`)?.label;
    expect(edge('autoReply.welcome', 'autoReply.hours')).toBe('Opening hours');
    expect(edge('autoReply.menu', 'file.beans')).toBe('media2');
    expect(edge('chatbot.0212345678', 'persistentMenu.0212345678')).toBeUndefined();
    expect(g.edges.some((e) => e.from.endsWith('chatbot.0212345678') && e.to.endsWith('persistentMenu.0212345678'))).toBe(true);
    expect(edge('persistentMenu.0212345678', 'autoReply.location')).toBe('Find us');
    // Nothing leads to the events card: the graph shows it with no incoming edge.
    expect(g.edges.filter((e) => e.to.endsWith('autoReply.events'))).toEqual([]);
  });

  it('parses as DOT with exactly the model’s nodes, edges and labels', () => {
    const g = brandGraph(brand);
    const dot = readDot(renderDot([g]));
    expect([...dot.nodes.keys()].sort()).toEqual(g.nodes.map((n) => n.id).sort());
    expect(dot.nodes.get('BR.demo000001/autoReply.menu')).toBe("Today's menu\\nautoReply.menu\\nCCwMhM0200");
    expect(dot.edges).toEqual(g.edges.map((e) => [e.from, e.to, e.label]));
  });

  it('keeps hostile names intact in DOT and inert in Mermaid', () => {
    const nasty = 'He said "hi" \\ #1; <b>`x`</b>\nnext';
    const cluster: Cluster = { label: nasty, nodes: [{ id: 'a"b', label: [nasty], kind: 'autoReply' }, { id: 'c', label: ['c'], kind: 'file' }], edges: [{ from: 'a"b', to: 'c', label: nasty, dashed: true }] };
    const dot = readDot(renderDot([cluster]));
    // The parser reads \" as "; \\ and \n stay, as Graphviz reads them in a label.
    const label = dotText(nasty).replace(/\\"/g, '"');
    expect(label).toBe('He said "hi" \\\\ #1; <b>`x`</b>\\nnext');
    expect(dot.nodes.get('a"b')).toBe(label);
    expect(dot.edges).toEqual([['a"b', 'c', label]]);
    const mermaid = renderMermaid([cluster]);
    expect(mermaidText(nasty)).toBe('He said #quot;hi#quot; \\ #35;1; #lt;b#gt;#96;x#96;#lt;/b#gt; next');
    const labels = mermaid.match(/"[^"]*"/g) ?? [];
    expect(labels).toHaveLength(4);
    for (const l of labels) expect(l.replace(/<br\/>/g, '')).not.toMatch(/[<>`]/);
    expect(mermaid.split('\n').filter((l) => l.includes('-.->'))).toHaveLength(1);
  });
});

describe('a link to what the manifests do not declare', () => {
  it('ends at a node of its own, drawn as outside the manifests, never at a node no one drew', async () => {
    const file = join(dir, 'outside.yaml');
    writeFileSync(file, 'apiVersion: rcsctl/v1\nkind: Brand\nbrand: { id: BR.demo000001 }\nbidirectionalRooms:\n  bot-coffee: { subTitle: Coffee chat, subNum: "0212345678" }\n');
    const r = await cli(['graph', file, '--format', 'dot'], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    const dot = readDot(r.stdout);
    expect(dot.nodes.get('BR.demo000001/chatbot.0212345678')).toBe('0212345678\\nnot in the manifests');
    expect(dot.edges).toContainEqual(['BR.demo000001/bidirectionalRoom.bot-coffee', 'BR.demo000001/chatbot.0212345678', 'replies from']);
    for (const [from, to] of dot.edges) expect([dot.nodes.has(from), dot.nodes.has(to)], `${from} -> ${to}`).toEqual([true, true]);
  });
});

describe("a template's images", () => {
  it('are nodes of their own, one per path, with an edge labelled by the param', async () => {
    const templates = join(ROOT, 'test', 'plan-cases', '061-templates-from-nothing', 'manifest.yaml');
    const r = await cli(['graph', templates, '--format', 'dot'], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    const dot = readDot(r.stdout);
    expect(dot.nodes.get('BR.demo000001/image.images/autumn.png')).toBe('images/autumn.png\\nimage');
    expect(dot.edges).toContainEqual(['BR.demo000001/template.autumn', 'BR.demo000001/image.images/autumn.png', 'media']);
    // The text template holds no image: no edge from it.
    expect(dot.edges.filter(([from]) => from === 'BR.demo000001/template.hours')).toEqual([]);
  });
});

describe('rcsctl graph', () => {
  let planPath: string;
  let plan: PlanFile;
  beforeAll(async () => {
    planPath = join(dir, 'plan.json');
    // The example brand from scratch: uploads, creates, a reply-link cycle and a menu, with their order.
    const r = await cli(['--sandbox', 'plan', EXAMPLE, '-o', planPath], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    plan = JSON.parse(readFileSync(planPath, 'utf8')) as PlanFile;
  });

  it('prints the brand as Mermaid by default and as DOT on request', async () => {
    const m = await cli(['graph', EXAMPLE], { env: {} });
    expect(m.code, m.stderr).toBe(0);
    expect(m.stdout).toBe(renderMermaid([brandGraph(brand)]));
    const d = await cli(['graph', EXAMPLE, '--format', 'dot', '-o', join(dir, 'brand.dot')], { env: {} });
    expect(d.stdout).toBe(`Wrote the dot graph to ${join(dir, 'brand.dot')}.\n`);
    expect(readDot(readFileSync(join(dir, 'brand.dot'), 'utf8')).nodes.size).toBe(13);
  });

  it('with --plan, draws the steps in plan order and an edge for every dependency', async () => {
    const r = await cli(['graph', '--plan', planPath, '--format', 'dot'], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    const steps = plan.brands[0]?.steps ?? [];
    const dot = readDot(r.stdout);
    expect(dot.nodes.size).toBe(steps.length);
    const expected = steps.flatMap((s) => s.dependsOn.map((d) => [`BR.demo000001/${d}`, `BR.demo000001/${s.id}`, undefined]));
    expect(expected.length).toBeGreaterThan(5);
    expect(dot.edges).toEqual(expected);
    expect(dot.nodes.get('BR.demo000001/file.hero-ff7131fa55b5.png:upload')).toMatch(/^\d+\. \+ file\.hero-ff7131fa55b5\.png\\nupload: /);
    expect(planGraph(plan.brands[0] as PlanFile['brands'][0]).nodes.map((n) => n.label[0]?.split('.')[0])).toEqual(steps.map((_, i) => String(i + 1)));
  });

  it('is added to the Markdown plan with --graph, in plan and in show', async () => {
    const shown = await cli(['show', planPath, '--format', 'markdown', '--graph'], { env: {} });
    expect(shown.stdout).toContain('<details><summary>Order of the steps (graph)</summary>\n\n```mermaid\nflowchart LR\n');
    expect(shown.stdout).toContain(renderMermaid([planGraph(plan.brands[0] as PlanFile['brands'][0])]));
    expect((await cli(['show', planPath, '--format', 'markdown'], { env: {} })).stdout).not.toContain('```mermaid');
  });

  it('refuses a bad format, paths with --plan, and a brand the plan does not have', async () => {
    for (const [argv, message] of [
      [['graph', EXAMPLE, '--format', 'svg'], '--format must be one of mermaid, dot, not "svg"'],
      [['graph', EXAMPLE, '--plan', planPath], 'give manifest paths or --plan FILE, not both'],
      [['graph', '--plan', planPath, '--brand', 'BR.other'], 'has no brand BR.other'],
    ] as const) {
      const r = await cli([...argv], { env: {} });
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.stderr).toContain(message);
    }
  });
});
