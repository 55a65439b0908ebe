// A tiny path router: patterns like `/api/1.1/brand/:brandId/logo/:fileId`,
// matched segment by segment. 404 for an unknown path, 405 for a known path
// with another method.

import type { Handler } from './http-types.js';

/** A route: method, pattern and handler. */
export interface Route {
  method: string;
  pattern: string;
  handler: Handler;
}

interface Compiled extends Route {
  parts: string[];
}

/** The outcome of a lookup. */
export type Match = { kind: 'found'; handler: Handler; params: Record<string, string> } | { kind: 'not-found' } | { kind: 'method-not-allowed' };

/** A set of routes. */
export class Router {
  private readonly routes: Compiled[] = [];

  /** Add routes. */
  add(...routes: Route[]): this {
    for (const r of routes) this.routes.push({ ...r, parts: r.pattern.split('/').filter(Boolean) });
    return this;
  }

  /** Find the handler for a method and a path. */
  match(method: string, path: string): Match {
    const segs = path.split('/').filter(Boolean);
    let pathKnown = false;
    // Static segments win over parameters (…/autoreplymsg/file vs …/autoreplymsg/:id).
    let best: { route: Compiled; params: Record<string, string>; score: number } | undefined;
    for (const route of this.routes) {
      if (route.parts.length !== segs.length) continue;
      const params: Record<string, string> = {};
      let score = 0;
      let okay = true;
      for (let i = 0; i < segs.length; i++) {
        const p = route.parts[i] as string;
        const s = segs[i] as string;
        if (p.startsWith(':')) {
          try {
            params[p.slice(1)] = decodeURIComponent(s);
          } catch {
            okay = false;
            break;
          }
        } else if (p === s) score++;
        else {
          okay = false;
          break;
        }
      }
      if (!okay) continue;
      pathKnown = true;
      if (route.method !== method) continue;
      if (best === undefined || score > best.score) best = { route, params, score };
    }
    if (best) return { kind: 'found', handler: best.route.handler, params: best.params };
    return pathKnown ? { kind: 'method-not-allowed' } : { kind: 'not-found' };
  }
}
