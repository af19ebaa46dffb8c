import diagnostics from 'node:diagnostics_channel';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';

export interface RegisteredRoute {
  method: string;
  url: string;
  /** Whether the route declared a response schema for a success status. */
  hasSuccessSchema: boolean;
  /** A money call: declared `config.idempotency`. */
  idempotent: boolean;
  /** Who may call it (`config.access`), and whether a staff member without a second factor may (`config.enrolment`). */
  access: string | undefined;
  enrolment: boolean;
}

export interface RouteProbe {
  /** Every route the app registered, as Fastify saw it (HEAD twins of GET routes left out). */
  routes: RegisteredRoute[];
  /** How many requests so far got through sign-in, access, schema validation and every guard to their handler. */
  reachedCount(): number;
  /** Stops watching new Fastify instances (the routes collected so far stay). */
  stop(): void;
}

type PreHandler = (request: FastifyRequest, reply: unknown, done: (error?: Error) => void) => void;

/**
 * Watches the next Fastify instances from birth (Fastify announces each one on the
 * `fastify.initialization` diagnostics channel, before any route is added): records every route
 * with an `onRoute` hook, and appends to each route a last pre-handler that marks the request as
 * having reached its handler. The app is built by the same code as in production: nothing in it
 * is changed but that marker.
 */
export function watchRoutes(): RouteProbe {
  const routes: RegisteredRoute[] = [];
  let reached = 0;
  const markReached: PreHandler = (_request, _reply, done) => {
    reached += 1;
    done();
  };
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        const response = (route.schema?.response ?? {}) as Record<string, unknown>;
        routes.push({
          method: String(method).toUpperCase(),
          url: route.url,
          hasSuccessSchema: Object.keys(response).some((status) => /^2/.test(status)),
          idempotent: Boolean((route.config as { idempotency?: unknown } | undefined)?.idempotency),
          access: (route.config as { access?: string } | undefined)?.access,
          enrolment: Boolean((route.config as { enrolment?: boolean } | undefined)?.enrolment),
        });
      }
      const existing = route.preHandler ? (Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler]) : [];
      route.preHandler = [...existing, markReached] as RouteOptions['preHandler'];
    });
  };
  diagnostics.subscribe('fastify.initialization', onInit);
  return {
    routes,
    reachedCount: () => reached,
    stop: () => diagnostics.unsubscribe('fastify.initialization', onInit),
  };
}

/** The routes without their automatic HEAD twins (a HEAD route of a GET route is Fastify's, not ours). */
export function withoutHeadTwins(routes: RegisteredRoute[]): RegisteredRoute[] {
  const gets = new Set(routes.filter((route) => route.method === 'GET').map((route) => route.url));
  const seen = new Set<string>();
  return routes.filter((route) => {
    const key = `${route.method} ${route.url}`;
    if (seen.has(key) || (route.method === 'HEAD' && gets.has(route.url))) return false;
    seen.add(key);
    return true;
  });
}
