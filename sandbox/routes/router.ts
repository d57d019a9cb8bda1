// Matches a path against the route table; `:name` segments capture (URL-decoded).
import { assetRoutes } from './assets-routes.js';
import { chartRoutes } from './charts-routes.js';
import { marketRoutes } from './market-routes.js';
import { projectRoutes } from './projects-routes.js';
import { referenceRoutes } from './reference-routes.js';
import type { Route } from './route.js';

interface Compiled {
  route: Route;
  segments: string[];
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

export class Router {
  private bySize = new Map<number, Compiled[]>();

  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      const segments = route.path.split('/').slice(1);
      const list = this.bySize.get(segments.length) ?? [];
      list.push({ route, segments });
      this.bySize.set(segments.length, list);
    }
  }

  /** The route for a path, or null. Throws URIError on a malformed %-escape. */
  match(path: string): Match | null {
    const parts = path.split('/').slice(1);
    for (const c of this.bySize.get(parts.length) ?? []) {
      const params: Record<string, string> = {};
      let ok = true;
      for (let k = 0; k < parts.length && ok; k++) {
        const seg = c.segments[k];
        if (seg.startsWith(':')) params[seg.slice(1)] = decodeURIComponent(parts[k]);
        else ok = seg === parts[k];
      }
      if (ok) return { route: c.route, params };
    }
    return null;
  }
}

export const v1Routes: readonly Route[] = [...assetRoutes, ...projectRoutes, ...referenceRoutes, ...marketRoutes, ...chartRoutes];
