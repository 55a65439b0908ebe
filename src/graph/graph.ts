// The brand as a graph, like `terraform graph`: every object the manifests
// declare, of every registered kind, and the references between them (reply
// links, images, a template's own images, a room's menu), as each kind draws itself (its `drawing`).
// Or a plan's steps and the order they run in. Drawn as Mermaid (which GitHub
// renders in a comment) or as Graphviz DOT. Pure: no I/O.

import { declaredObjects } from '../kinds/declared.js';
import { KINDS, isDrawn, type AnyKind } from '../kinds/index.js';
import type { DesiredBrand } from '../manifest/types.js';
import type { BrandPlan, Step } from '../plan/types.js';

/** One node: a resource, or a plan step. */
export interface GraphNode {
  /** Unique within the whole graph. */
  id: string;
  /** Lines of the label, first the name. */
  label: string[];
  /** Drawing class: the resource kind, or the plan step's marker. */
  kind: string;
}

/** One edge; `dashed` for a link that leaves the manifests. */
export interface GraphEdge {
  from: string;
  to: string;
  label?: string;
  dashed?: boolean;
}

/** One brand (or one brand's plan): drawn as a cluster. */
export interface Cluster {
  label: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** The drawing class of a link's target that the manifests do not declare. */
const OUTSIDE = 'external';
/** The drawing class of an image an object holds itself (a template's). */
const IMAGE = 'image';

/**
 * What a brand's manifests declare and how it links together: each kind's
 * objects in the order of the manifest's sections, drawn as the kind says.
 */
export function brandGraph(brand: DesiredBrand): Cluster {
  const id = (address: string): string => `${brand.brandId}/${address}`;
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const outside = new Set<string>();
  const images = new Set<string>();
  const kinds = [...KINDS].sort((a, b) => (a.manifest?.order ?? Infinity) - (b.manifest?.order ?? Infinity));
  // A link to an address the manifests do not declare (a kind cannot tell from one object) is drawn to a node of its own, as an outside target.
  const declared = new Set(kinds.flatMap((kind) => declaredObjects(kind, brand).map(([key]) => id(`${kind.name}.${key}`))));
  for (const kind of kinds) {
    const drawing = isDrawn(kind) ? kind.drawing : undefined;
    for (const [key, d] of declaredObjects(kind, brand)) {
      const address = `${kind.name}.${key}`;
      const from = id(address);
      nodes.push({ id: from, label: [drawing?.name?.(d) ?? kind.identity.desiredName(d), address, ...(drawing?.details?.(d) ?? [])], kind: kind.name });
      const owner = drawing?.partOf?.(d);
      if (owner !== undefined) edges.push({ from: id(owner), to: from });
      for (const link of drawing?.links?.(d) ?? []) {
        const to = id(link.to);
        const label = link.label === undefined ? {} : { label: link.label };
        if (link.image === true) {
          // One node per image, however many objects show it.
          if (!images.has(to)) nodes.push({ id: to, label: [link.to.slice(link.to.indexOf('.') + 1), 'image'], kind: IMAGE });
          images.add(to);
          edges.push({ from, to, ...label });
          continue;
        }
        if (link.outside !== true && declared.has(to)) {
          edges.push({ from, to, ...label });
          continue;
        }
        if (!outside.has(to)) nodes.push({ id: to, label: [link.to.slice(link.to.indexOf('.') + 1), 'not in the manifests'], kind: OUTSIDE });
        outside.add(to);
        edges.push({ from, to, ...label, dashed: true });
      }
    }
  }
  return { label: brand.brandId, nodes, edges };
}

/** The marker a plan shows for a step (`+`, `~`, `-`, `!`, `⚑`). */
function marker(step: Step): string {
  if (step.gate.type === 'blocked' || (step.gate.type === 'option' && step.gate.set !== true)) return '!';
  if (step.gate.type === 'review') return '⚑';
  return step.op === 'upload' || step.op === 'create' ? '+' : step.op === 'delete' ? '-' : '~';
}

const MARKER_KIND: Readonly<Record<string, string>> = { '+': 'create', '~': 'update', '-': 'delete', '!': 'blocked', '⚑': 'review' };

/** A plan's steps, numbered in plan order, with an edge from each step to every step that waits for it. */
export function planGraph(plan: BrandPlan): Cluster {
  const id = (stepId: string): string => `${plan.brandId}/${stepId}`;
  const nodes = plan.steps.map((s, i): GraphNode => {
    const m = marker(s);
    return { id: id(s.id), label: [`${i + 1}. ${m} ${s.address}`, `${s.op}: ${s.name}`], kind: MARKER_KIND[m] ?? 'update' };
  });
  const edges = plan.steps.flatMap((s) => s.dependsOn.map((d): GraphEdge => ({ from: id(d), to: id(s.id) })));
  return { label: plan.brandId, nodes, edges };
}

/** Fill and outline of the plan's step markers and of outside targets; a kind's own are its `drawing.colour`. */
const COLOURS: Readonly<Record<string, readonly [string, string]>> = {
  [OUTSIDE]: ['#ffffff', '#999999'],
  [IMAGE]: ['#e3ecf7', '#1d3f66'],
  create: ['#e6f4ea', '#1a7f37'],
  update: ['#fff8c5', '#9a6700'],
  delete: ['#fdecea', '#c0262d'],
  blocked: ['#fdecea', '#c0262d'],
  review: ['#ede7f6', '#5e35b1'],
};

/** Fill and outline of a drawing class, in both notations. */
function colours(kind: string): readonly [string, string] {
  return COLOURS[kind] ?? drawnColour(KINDS.find((k) => k.name === kind)) ?? ['#ffffff', '#333333'];
}

/**
 * Text safe inside a quoted Mermaid label. Mermaid reads `#name;` as an entity
 * and treats markup and backticks specially, so those are written as entities.
 */
export function mermaidText(text: string): string {
  return text.replace(/#/g, '#35;').replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;').replace(/`/g, '#96;').replace(/[\r\n]+/g, ' ');
}

/** The graph as a Mermaid flowchart, one subgraph per brand. */
export function renderMermaid(clusters: Cluster[]): string {
  const ids = new Map<string, string>();
  const short = (id: string): string => {
    let s = ids.get(id);
    if (s === undefined) ids.set(id, (s = `n${ids.size}`));
    return s;
  };
  const out = ['flowchart LR'];
  const kinds = new Set<string>();
  clusters.forEach((c, ci) => {
    out.push(`  subgraph c${ci}["${mermaidText(c.label)}"]`, '    direction LR');
    for (const n of c.nodes) {
      kinds.add(n.kind);
      out.push(`    ${short(n.id)}["${n.label.map(mermaidText).join('<br/>')}"]:::${n.kind}`);
    }
    out.push('  end');
  });
  for (const c of clusters) {
    for (const e of c.edges) {
      const arrow = e.dashed === true ? '-.->' : '-->';
      out.push(`  ${short(e.from)} ${arrow}${e.label === undefined ? '' : `|"${mermaidText(e.label)}"|`} ${short(e.to)}`);
    }
  }
  for (const k of [...kinds].sort()) {
    const [fill, stroke] = colours(k);
    out.push(`  classDef ${k} fill:${fill},stroke:${stroke},color:#1f1a17`);
  }
  return out.join('\n') + '\n';
}

/** Text safe inside a quoted DOT string. */
export function dotText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n');
}

/** The graph as Graphviz DOT, one cluster per brand. */
export function renderDot(clusters: Cluster[]): string {
  const out = ['digraph rcsctl {', '  rankdir=LR;', '  node [shape=box, style="rounded,filled", fontname="sans-serif"];', '  edge [fontname="sans-serif", fontsize=10];'];
  clusters.forEach((c, ci) => {
    out.push(`  subgraph "cluster_${ci}" {`, `    label="${dotText(c.label)}";`);
    for (const n of c.nodes) {
      const [fill, stroke] = colours(n.kind);
      out.push(`    "${dotText(n.id)}" [label="${n.label.map(dotText).join('\\n')}", fillcolor="${fill}", color="${stroke}"];`);
    }
    out.push('  }');
  });
  for (const c of clusters) {
    for (const e of c.edges) {
      const attrs = [e.label === undefined ? undefined : `label="${dotText(e.label)}"`, e.dashed === true ? 'style=dashed' : undefined].filter((a) => a !== undefined);
      out.push(`  "${dotText(e.from)}" -> "${dotText(e.to)}"${attrs.length === 0 ? '' : ` [${attrs.join(', ')}]`};`);
    }
  }
  out.push('}');
  return out.join('\n') + '\n';
}

function drawnColour(kind: AnyKind | undefined): readonly [string, string] | undefined {
  return kind !== undefined && isDrawn(kind) ? kind.drawing.colour : undefined;
}
