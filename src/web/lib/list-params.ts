// A paged or filtered list keeps its state in the address (?status=approved&page=3): a reload, a
// link or the back button shows the same page, and the route's clientLoader reads the same values
// as the component to prefetch exactly what it will show.

/** The `page` of a paged list: a whole number from 1 to 100,000 (the API's limit), else 1. */
export function pageParam(params: URLSearchParams): number {
  return Math.max(1, Math.min(100_000, Number.parseInt(params.get('page') ?? '1', 10) || 1));
}

/** One of a fixed set of values (a status tab, a filter), else the default. */
export function choiceParam<Choice extends string>(params: URLSearchParams, name: string, choices: readonly Choice[], fallback: Choice): Choice {
  const value = params.get(name);
  return choices.includes(value as Choice) ? (value as Choice) : fallback;
}

/** The search parameters for a list's state, leaving out what is empty or at its default (page 1). */
export function listSearch(values: Record<string, string | number | undefined>, defaults: Record<string, string | number> = { page: 1 }): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === '' || value === defaults[name]) continue;
    search.set(name, String(value));
  }
  return search;
}

/** The search parameters of a clientLoader's request. */
export const searchOf = (request: Request) => new URL(request.url).searchParams;
