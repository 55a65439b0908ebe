// The brand as a graph, like `terraform graph`: auto-replies and the replies
// that link them, their images, rooms and their menus, logos and agency files.
// Or a plan's steps and the order they run in. Drawn as Mermaid (which GitHub
// renders in a comment) or as Graphviz DOT. Pure: no I/O.

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

/** What a brand's manifests declare and how it links together. */
export function brandGraph(brand: DesiredBrand): Cluster {
  const id = (address: string): string => `${brand.brandId}/${address}`;
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const external = new Set<string>();
  const linkTo = (from: string, target: { autoReply?: string; autoReplyMsgId?: string }, label: string): void => {
    if (target.autoReply !== undefined) edges.push({ from, to: id(`autoReply.${target.autoReply}`), label });
    else if (target.autoReplyMsgId !== undefined) {
      const to = id(`autoReply.${target.autoReplyMsgId}`);
      if (!external.has(to)) nodes.push({ id: to, label: [target.autoReplyMsgId, 'not in the manifests'], kind: 'external' });
      external.add(to);
      edges.push({ from, to, label, dashed: true });
    }
  };
  for (const f of brand.files.values()) nodes.push({ id: id(`file.${f.handle}`), label: [f.file.relPath, `file.${f.handle}`], kind: 'file' });
  for (const a of brand.autoReplies.values()) {
    const from = id(`autoReply.${a.handle}`);
    nodes.push({ id: from, label: [a.name, `autoReply.${a.handle}`, a.messagebaseId], kind: 'autoReply' });
    for (const [field, value] of Object.entries(a.body)) if (typeof value !== 'string') edges.push({ from, to: id(`file.${value.file}`), label: field });
    const suggestions = [...(a.buttons ?? []).flatMap((g) => g.suggestions ?? []), ...(a.chipList ?? [])];
    for (const s of suggestions) if (s.reply !== undefined) linkTo(from, s.reply, s.reply.displayText ?? 'reply');
  }
  for (const c of brand.chatbots.values()) {
    const room = id(`chatbot.${c.chatbotId}`);
    nodes.push({ id: room, label: [c.subTitle ?? c.chatbotId, `chatbot.${c.chatbotId}`], kind: 'chatbot' });
    if (c.persistentMenu === undefined) continue;
    const menu = id(`persistentMenu.${c.chatbotId}`);
    nodes.push({ id: menu, label: [`${c.subTitle ?? c.chatbotId} menu`, `persistentMenu.${c.chatbotId}`], kind: 'persistentMenu' });
    edges.push({ from: room, to: menu });
    for (const item of c.persistentMenu) if (item.type === 'reply') linkTo(menu, item, item.title);
  }
  for (const l of brand.logos.values()) nodes.push({ id: id(`logo.${l.handle}`), label: [l.name, `logo.${l.handle}`], kind: 'logo' });
  for (const f of brand.agencyFiles.values()) nodes.push({ id: id(`agencyFile.${f.fileId}`), label: [f.file.relPath, `agencyFile.${f.fileId}`], kind: 'agencyFile' });
  return { label: brand.brandId, nodes, edges };
}

/** The marker a plan shows for a step (`+`, `~`, `-`, `!`, `⚑`). */
function marker(step: Step): string {
  if (step.gate.type === 'blocked') return '!';
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

/** Fill and outline of each kind, in both notations. */
const COLOURS: Readonly<Record<string, [string, string]>> = {
  autoReply: ['#fff3e0', '#6b4423'],
  file: ['#e3ecf7', '#1d3f66'],
  chatbot: ['#e2f3e5', '#1c5a2a'],
  persistentMenu: ['#f1f8e9', '#1c5a2a'],
  logo: ['#f6e3ef', '#6b1f4d'],
  agencyFile: ['#eeeeee', '#555555'],
  external: ['#ffffff', '#999999'],
  create: ['#e6f4ea', '#1a7f37'],
  update: ['#fff8c5', '#9a6700'],
  delete: ['#fdecea', '#c0262d'],
  blocked: ['#fdecea', '#c0262d'],
  review: ['#ede7f6', '#5e35b1'],
};

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
    const [fill, stroke] = COLOURS[k] ?? ['#ffffff', '#333333'];
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
      const [fill, stroke] = COLOURS[n.kind] ?? ['#ffffff', '#333333'];
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
