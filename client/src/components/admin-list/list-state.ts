import type { SortOrder } from '../pagination';

/** Filter values as they travel in a query string: one text per name. */
export type ListFilters = Record<string, string>;

/** A list with a search but no filters. */
export type NoFilters = Record<never, string>;

/** Everything that picks the rows of a server-paged list. Flat, so it maps one to one onto a query string. */
export type ListState<F extends ListFilters = ListFilters, S extends string = string> = F & ListBase<S>;

/** What every list has: a search, a page of a size, a sort. */
export interface ListBase<S extends string = string> {
  search: string;
  page: number;
  limit: number;
  sort: S;
  order: SortOrder;
}

/** The query parameters every server list takes (a blank search is left out); filters are each list's own. */
export function listParams<S extends string>({ search, page, limit, sort, order }: ListBase<S>) {
  return { search: search || undefined, page, limit, sort, order };
}

/** What a list accepts and starts with. Filter names must not be search, page, limit, sort or order. */
export interface ListSpec<F extends ListFilters, S extends string> {
  /** The list with nothing chosen; values equal to these stay out of the URL. */
  defaults: ListState<F, S>;
  /** The columns the server sorts by; any other sort in a link falls back to the default. */
  sorts: readonly S[];
  /** Rows-per-page choices; without them the page size is fixed at the default. */
  pageSizes?: readonly number[];
  /** The values a filter may take (others fall back to its default); a filter without a list takes any text. */
  choices?: { readonly [K in keyof F]?: readonly string[] };
  /** Also remember the list in localStorage under this key: a visit without list parameters opens it as last left. */
  storageKey?: string;
  /** What the list's names in the query string start with, so that two lists can share a page ('devices_' → devices_page). */
  prefix?: string;
}

const BASE_KEYS = ['search', 'page', 'limit', 'sort', 'order'] as const;

/** The names of the filters: every key of the defaults besides search, page, limit, sort and order. */
export const filterKeys = (spec: ListSpec<ListFilters, string>): string[] =>
  Object.keys(spec.defaults).filter((key) => !(BASE_KEYS as readonly string[]).includes(key));

/** The list's own keys, in the order they are written. */
const ownKeys = (spec: ListSpec<ListFilters, string>) => ['search', ...filterKeys(spec), 'sort', 'order', 'page', 'limit'];

/** A key's name in the query string. */
const paramName = (spec: ListSpec<ListFilters, string>, key: string) => (spec.prefix ?? '') + key;

/** A list state read from any source of text values (a query string, stored JSON); what does not fit falls back to the default. */
export function parseListState<F extends ListFilters, S extends string>(
  spec: ListSpec<F, S>,
  read: (key: string) => string | null | undefined,
): ListState<F, S> {
  const defaults = spec.defaults;
  const page = Number(read('page'));
  const limit = Number(read('limit'));
  const sort = read('sort');
  const order = read('order');
  const state: Record<string, unknown> = {
    search: (read('search') ?? defaults.search).trim(),
    page: Number.isInteger(page) && page >= 1 ? page : defaults.page,
    limit: (spec.pageSizes ?? [defaults.limit]).includes(limit) ? limit : defaults.limit,
    sort: spec.sorts.includes(sort as S) ? sort : defaults.sort,
    order: order === 'asc' || order === 'desc' ? order : defaults.order,
  };
  const choices = (spec.choices ?? {}) as Record<string, readonly string[] | undefined>;
  for (const key of filterKeys(spec)) {
    const value = read(key);
    const allowed = choices[key];
    state[key] = value != null && (!allowed || allowed.includes(value)) ? value : defaults[key];
  }
  return state as ListState<F, S>;
}

/** The list a query string carries; what does not fit falls back to the default. */
export function readListParams<F extends ListFilters, S extends string>(spec: ListSpec<F, S>, params: URLSearchParams): ListState<F, S> {
  return parseListState(spec, (key) => params.get(paramName(spec, key)));
}

/** `params` with the list's own keys set to `state`: values equal to the defaults are left out, other parameters kept. */
export function writeListState<F extends ListFilters, S extends string>(
  spec: ListSpec<F, S>,
  params: URLSearchParams,
  state: ListState<F, S>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  const values = state as Record<string, unknown>;
  const defaults = spec.defaults as Record<string, unknown>;
  for (const key of ownKeys(spec)) {
    next.delete(paramName(spec, key));
    if (values[key] !== defaults[key]) next.set(paramName(spec, key), String(values[key]));
  }
  return next;
}

/** Whether a query string carries any of the list's own keys. */
export const hasListParams = (spec: ListSpec<ListFilters, string>, params: URLSearchParams) =>
  ownKeys(spec).some((key) => params.has(paramName(spec, key)));

/** Whether rows are narrowed: a search or a filter away from its default. */
export function isFiltered<F extends ListFilters, S extends string>(spec: ListSpec<F, S>, state: ListState<F, S>): boolean {
  return !!state.search || filterKeys(spec).some((key) => state[key] !== spec.defaults[key]);
}

/** The list as stored under `key`, or the defaults when nothing (or nothing readable) is stored. */
export function loadListState<F extends ListFilters, S extends string>(key: string, spec: ListSpec<F, S>): ListState<F, S> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(key) ?? '{}');
    const values = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
    return parseListState(spec, (name) => (values[name] == null ? null : String(values[name])));
  } catch {
    return { ...spec.defaults };
  }
}

export function saveListState(key: string, state: object): void {
  localStorage.setItem(key, JSON.stringify(state));
}
