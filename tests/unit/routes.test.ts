import { describe, expect, it } from 'vitest';
import reactRouterConfig from '../../react-router.config';
import { clientRenderedPaths, isClientRenderedPath, prerenderedPaths, routes, type RouteName } from '../../src/shared/routes';
import { paths } from '../../src/web/paths';
import routeConfig from '../../src/web/routes';

interface RouteEntry {
  id?: string;
  path?: string;
  index?: boolean;
  children?: RouteEntry[];
}

const flatten = (entries: RouteEntry[]): RouteEntry[] => entries.flatMap((entry) => [entry, ...flatten(entry.children ?? [])]);
const pathOf = (entry: RouteEntry) => (entry.index ? '/' : `/${entry.path}`);

// The manifest (src/shared/routes.ts) is the only list of paths: the web app's routes, the
// prerendered pages, the server's 200-or-404 answer and the links must all say the same.
describe('route manifest', () => {
  const names = Object.keys(routes) as RouteName[];
  // A catch-all ('*', 'admin/*': the not-found pages) answers what no page does; it is not a page.
  const pages = flatten(routeConfig as RouteEntry[]).filter((entry) => entry.index || (entry.path !== undefined && !entry.path.endsWith('*')));

  it('the web app has exactly one route per manifest entry, at its path, with its name as id', () => {
    expect(pages.map((entry) => [entry.id, pathOf(entry)]).sort()).toEqual(names.map((name) => [name, routes[name].path]).sort());
    expect(new Set(pages.map(pathOf)).size).toBe(pages.length);
  });

  it('every page is either prerendered or client-rendered, never both', () => {
    expect(reactRouterConfig.prerender).toEqual(prerenderedPaths);
    expect([...prerenderedPaths, ...clientRenderedPaths].sort()).toEqual(pages.map(pathOf).sort());
    expect(prerenderedPaths.filter((path) => clientRenderedPaths.includes(path))).toEqual([]);
    // A prerendered page is one HTML file: it cannot have a parameter.
    expect(prerenderedPaths.filter((path) => path.includes(':'))).toEqual([]);
  });

  it('the server answers 200 for exactly the client-rendered paths; a parameter is one path segment', () => {
    for (const path of clientRenderedPaths) expect(isClientRenderedPath(path.replace(/:[A-Za-z]+/g, 'x1')), path).toBe(true);
    for (const path of prerenderedPaths.filter((path) => path !== '/admin/login')) expect(isClientRenderedPath(path), path).toBe(false);
    expect(isClientRenderedPath('/account/home')).toBe(true);
    expect(isClientRenderedPath('/admin/users/0b6c4c1e-2f7a-4a55-9d7e-9b1d0c1a2b3c')).toBe(true);
    expect(isClientRenderedPath('/admin/users/account/42')).toBe(true);
    expect(isClientRenderedPath('/account/nope')).toBe(false);
    expect(isClientRenderedPath('/admin/users/1/2')).toBe(false);
    expect(isClientRenderedPath('/accounting')).toBe(false);
  });

  it('links are the manifest paths, with parameters filled in and escaped', () => {
    for (const name of names) {
      const link = paths[name];
      if (typeof link === 'string') expect(link).toBe(routes[name].path);
      else expect(routes[name].path).toContain(':');
    }
    expect(paths.accountHome).toBe('/account/home');
    expect(paths.adminUser('0b6c4c1e')).toBe('/admin/users/0b6c4c1e');
    expect(paths.adminUserTransactions('a/b')).toBe('/admin/transactions/a%2Fb');
  });
});
