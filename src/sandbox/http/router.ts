/**
 * Route templates (`/projects/{id}/test`) compiled to matchers. More specific templates (more
 * literal segments) win, so `/projects/stats` beats `/projects/{id}` whatever the list order.
 */

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

export interface Routable {
  readonly method: HttpMethod;
  readonly template: string;
}

interface Compiled<R extends Routable> {
  readonly route: R;
  readonly segments: readonly string[];
  readonly literals: number;
}

export interface RouteMatch<R extends Routable> {
  readonly route: R;
  readonly params: Readonly<Record<string, string>>;
}

export class Router<R extends Routable> {
  private readonly compiled: Compiled<R>[];

  constructor(routes: readonly R[]) {
    this.compiled = routes
      .map((route) => {
        const segments = route.template.split("/").filter((s) => s !== "");
        return { route, segments, literals: segments.filter((s) => !s.startsWith("{")).length };
      })
      .sort((a, b) => b.literals - a.literals);
  }

  match(method: string, path: string): RouteMatch<R> | undefined {
    const parts = path.split("/").filter((s) => s !== "");
    for (const c of this.compiled) {
      if (c.route.method !== method || c.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let matched = true;
      for (let i = 0; i < parts.length && matched; i++) {
        const seg = c.segments[i] ?? "";
        const part = parts[i] ?? "";
        if (seg.startsWith("{")) {
          try {
            params[seg.slice(1, -1)] = decodeURIComponent(part);
          } catch {
            matched = false;
          }
        } else matched = seg === part;
      }
      if (matched) return { route: c.route, params };
    }
    return undefined;
  }
}
