import { describe, expect, it } from 'vitest';
import { clientRenderedPaths, isClientRenderedPath, publicPaths } from '../../src/shared/routes';
import routes from '../../src/web/routes';

interface RouteEntry {
  path?: string;
  index?: boolean;
  children?: RouteEntry[];
}

const flatten = (entries: RouteEntry[]): string[] =>
  entries.flatMap((entry) => [...(entry.path !== undefined ? [`/${entry.path}`] : entry.index ? ['/'] : []), ...flatten(entry.children ?? [])]);

// The server decides 200 or 404 from these lists without loading the web app: they must name
// exactly the routes the web app has.
describe('route lists', () => {
  const declared = flatten(routes as RouteEntry[]).filter((path) => path !== '/*');

  it('every route is either prerendered or client-rendered, and each list names only real routes', () => {
    expect([...publicPaths, ...clientRenderedPaths].sort()).toEqual([...declared].sort());
  });

  it('matches a parameter as one path segment, and nothing else', () => {
    expect(isClientRenderedPath('/account/home')).toBe(true);
    expect(isClientRenderedPath('/admin/users/0b6c4c1e-2f7a-4a55-9d7e-9b1d0c1a2b3c')).toBe(true);
    expect(isClientRenderedPath('/admin/users/account/42')).toBe(true);
    expect(isClientRenderedPath('/account/nope')).toBe(false);
    expect(isClientRenderedPath('/admin/users/1/2')).toBe(false);
    expect(isClientRenderedPath('/accounting')).toBe(false);
  });
});
