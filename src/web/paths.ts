import { routes, type RouteName, type RoutePath } from '../shared/routes';

// Links, derived from the route manifest (src/shared/routes.ts): `paths.accountHome` is a path,
// `paths.adminUser(id)` fills the path's parameters in order. A link to a page that does not exist
// cannot be written.

type ParamsOf<Path extends string> = Path extends `${string}:${infer Param}/${infer Rest}`
  ? [Param, ...ParamsOf<Rest>]
  : Path extends `${string}:${infer Param}`
    ? [Param]
    : [];

/** One string per parameter. */
type Values<Params extends string[]> = { [K in keyof Params]: string };

type LinkTo<Path extends string> = ParamsOf<Path> extends [] ? Path : (...values: Values<ParamsOf<Path>>) => string;

/** A path with its parameters filled in, as a type: `/admin/users/${string}`. */
type Filled<Path extends string> = Path extends `${infer Head}:${string}/${infer Rest}`
  ? `${Head}${string}/${Filled<Rest>}`
  : Path extends `${infer Head}:${string}`
    ? `${Head}${string}`
    : Path;

/** Any page of the app. Content modules type their links with it, so a typo fails the type check. */
export type AppPath = Filled<RoutePath>;

const fill = (path: string) => {
  const parts = path.split('/');
  return (...values: string[]) => {
    let next = 0;
    return parts.map((part) => (part.startsWith(':') ? encodeURIComponent(values[next++] ?? '') : part)).join('/');
  };
};

export const paths = Object.fromEntries(
  (Object.keys(routes) as RouteName[]).map((name) => {
    const { path } = routes[name];
    return [name, path.includes(':') ? fill(path) : path];
  }),
) as unknown as { readonly [Name in RouteName]: LinkTo<(typeof routes)[Name]['path']> };
