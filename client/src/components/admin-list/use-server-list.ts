import { useDebouncedCallback } from '@mantine/hooks';
import { keepPreviousData, QueryFunction, QueryKey, SkipToken, useQuery, useQueryClient, UseQueryOptions } from '@tanstack/react-query';
import { ChangeEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import type { ApiError } from '../../api/http-client';
import { nextSort, SortOrder } from '../pagination';
import {
  hasListParams,
  isFiltered,
  ListFilters,
  ListSpec,
  ListState,
  loadListState,
  readListParams,
  saveListState,
  writeListState,
} from './list-state';

/** Admin spec section 9: searches wait 300 ms after the last key. */
export const SEARCH_DEBOUNCE_MS = 300;

/** What every server list answers besides its rows. */
export interface ListMeta {
  page: number;
  pages: number;
  limit: number;
  total: number;
}

/** The sort a table shows and the header click that changes it. */
export interface TableSorting<S extends string> {
  sort: S;
  order: SortOrder;
  onSort: (sort: S) => void;
}

/**
 * The generated query options for one state, e.g. `(state) => getListUsersQueryOptions(toParams(state))`. Typed
 * loosely (key and fetch function) so one list may switch endpoints by a filter (then name the answer types:
 * `useServerList<F, S, SystemLogsResponseDto | LogListResponseDto>`); every other option, such as a refetch interval, is passed on.
 */
export type ListQuery<F extends ListFilters, S extends string, TData> = (state: ListState<F, S>) => {
  queryKey: QueryKey;
  queryFn?: QueryFunction<TData, QueryKey, never> | SkipToken;
};

/**
 * A server-paged list whose search, filters, page, page size and sort live in the URL's query string, so a list
 * can be linked, reloaded and walked with back and forward. Choices push a history entry; the debounced search and
 * corrections replace the current one. A page that no longer exists (after a delete or a narrower filter) moves
 * to the last one. `spec` must keep its identity (a module constant).
 */
export function useServerList<F extends ListFilters, S extends string, TData extends { meta: ListMeta }>(
  spec: ListSpec<F, S>,
  query: ListQuery<F, S, TData>,
) {
  const queryClient = useQueryClient();
  const location = useLocation();
  const [params, setParams] = useSearchParams();

  // A visit without list parameters opens a remembered list as last left, until the URL carries it (effect below).
  const [remembered] = useState(() => {
    const stored = spec.storageKey && !hasListParams(spec, params) ? loadListState(spec.storageKey, spec) : null;
    const url = stored && writeListState(spec, params, stored);
    return url && hasListParams(spec, url) ? { at: location.key, params: url } : null;
  });
  const restoring = remembered !== null && remembered.at === location.key;
  const source = restoring ? remembered.params : params;
  const state = useMemo(() => readListParams(spec, source), [spec, source]);

  useEffect(() => {
    if (restoring) setParams(remembered.params, { replace: true });
  }, [restoring, remembered, setParams]);
  useEffect(() => {
    if (spec.storageKey) saveListState(spec.storageKey, state);
  }, [spec, state]);

  // The search box shows what is typed; the URL gets it 300 ms after the last key. Back and forward bring the box
  // along, but our own search arriving in the URL never overwrites keys typed since it was sent.
  const [searchText, setSearchText] = useState(state.search);
  const [shownSearch, setShownSearch] = useState(state.search);
  const [sent, setSent] = useState<string[]>([]);
  if (shownSearch !== state.search) {
    setShownSearch(state.search);
    const own = sent.indexOf(state.search);
    setSent(own >= 0 ? sent.slice(own + 1) : []);
    if (own < 0 && searchText.trim() !== state.search) setSearchText(state.search);
  }
  // A navigation is a transition: until the next list is shown, this one stays on screen with its old URL. So a change
  // builds on the list this hook last wrote, while that is still on its way (a sort clicked right after a filter
  // keeps the filter). Another location shown since then (Back, a link) forgets it.
  const written = useRef<{ at: string; params: URLSearchParams } | null>(null);
  useEffect(() => {
    if (written.current?.at !== location.key) written.current = null;
  }, [location.key]);
  const latest = () => {
    const params = written.current?.at === location.key ? written.current.params : source;
    return { params, state: readListParams(spec, params) };
  };
  const write = (next: URLSearchParams, replace: boolean) => {
    written.current = { at: location.key, params: next };
    setParams(next, { replace });
  };
  const change = (next: (latest: ListState<F, S>) => ListState<F, S>, replace = false) => {
    const base = latest();
    write(writeListState(spec, base.params, next(base.state)), replace);
  };

  const commitSearch = useDebouncedCallback((text: string) => {
    const search = text.trim();
    const base = latest();
    if (search === base.state.search) return;
    setSent((current) => [...current, search]);
    write(writeListState(spec, base.params, { ...base.state, search, page: 1 }), true);
  }, SEARCH_DEBOUNCE_MS);
  // The list stays on screen while the next page loads, so a search still waiting then would navigate back here:
  // it is sent before any click (a link away included), and dropped on Back or Forward.
  useEffect(() => {
    const send = () => commitSearch.flush();
    const drop = () => commitSearch.cancel();
    document.addEventListener('click', send, true);
    window.addEventListener('popstate', drop);
    return () => {
      document.removeEventListener('click', send, true);
      window.removeEventListener('popstate', drop);
    };
  }, [commitSearch]);
  const changeSearch = (text: string) => {
    setSearchText(text);
    commitSearch(text);
  };

  const sortBy = (sort: S) => change((latest) => ({ ...latest, ...nextSort(latest, sort), page: 1 }));

  const result = useQuery<TData, ApiError>({ ...(query(state) as UseQueryOptions<TData, ApiError>), placeholderData: keepPreviousData });
  const meta: TData['meta'] | undefined = result.data?.meta;

  // A page that no longer exists moves to the last one (never judged on the previous query's answer).
  const lastPage = meta && !result.isPlaceholderData ? Math.max(1, meta.pages) : null;
  useEffect(() => {
    // Only while the list shown is the latest: a change of ours on its way is judged when it arrives.
    if (lastPage === null || state.page <= lastPage || written.current?.at === location.key) return;
    setParams((current) => writeListState(spec, current, { ...state, page: lastPage }), { replace: true });
  }, [lastPage, state, location.key, spec, setParams]);

  return {
    state,
    /** The server's answer (keeps the previous rows while the next page loads). */
    result,
    meta,
    /** Whether rows are narrowed by a search or a filter. */
    filtered: isFiltered(spec, state),
    /** Props for the search box: the typed text and its change handler. */
    searchProps: { value: searchText, onChange: (event: ChangeEvent<HTMLInputElement>) => changeSearch(event.currentTarget.value) },
    setSearch: changeSearch,
    /** Changes filters or the page size and starts again on page 1. */
    update: (update: Partial<ListState<F, S>>, options?: { replace?: boolean }) =>
      change((latest) => ({ ...latest, page: 1, ...update }), options?.replace),
    setPage: (page: number) => change((latest) => ({ ...latest, page })),
    /** A header click: the active column flips its direction, another starts ascending; back to page 1. */
    sortBy,
    /** What a table's sortable headers need. */
    sorting: { sort: state.sort, order: state.order, onSort: sortBy } satisfies TableSorting<S>,
    /** Search and filters back to their defaults; the page size and sort stay. */
    clearFilters: () => {
      commitSearch.cancel();
      setSearchText('');
      change((latest) => ({ ...spec.defaults, limit: latest.limit, sort: latest.sort, order: latest.order }));
    },
    /** Reloads every page of this list. */
    refresh: () => queryClient.invalidateQueries({ queryKey: query(state).queryKey.slice(0, 1) }),
  };
}

export type ServerList<F extends ListFilters, S extends string, TData extends { meta: ListMeta }> = ReturnType<
  typeof useServerList<F, S, TData>
>;
