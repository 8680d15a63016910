import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { lazy, ReactElement, Suspense } from 'react';
import { createMemoryRouter, Link, MemoryRouter, Route, RouterProvider, Routes, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { ListSpec, ListState } from './list-state';
import { SEARCH_DEBOUNCE_MS, ServerList, useServerList } from './use-server-list';

type Filters = { status: 'all' | 'active'; owner: string };
type Sort = 'name' | 'created_at';
type Answer = { data: string[]; meta: { page: number; pages: number; limit: number; total: number } };

const SPEC: ListSpec<Filters, Sort> = {
  defaults: { search: '', status: 'all', owner: '', page: 1, limit: 10, sort: 'created_at', order: 'desc' },
  sorts: ['name', 'created_at'],
  pageSizes: [10, 25],
  choices: { status: ['all', 'active'] },
};
const STORED: ListSpec<Filters, Sort> = { ...SPEC, storageKey: 'test_list' };

/** Renders a list on a memory router at `url`; the server answers `pages` pages whatever is asked. */
function renderList(
  url: string,
  { spec = SPEC, pages = () => 3 }: { spec?: ListSpec<Filters, Sort>; pages?: (state: ListState<Filters, Sort>) => number } = {},
) {
  const asked: Array<ListState<Filters, Sort>> = [];
  const current: { list?: ServerList<Filters, Sort, Answer> } = {};
  function Probe() {
    const list = useServerList(spec, (state) => ({
      queryKey: ['/api/test', state],
      queryFn: async (): Promise<Answer> => {
        asked.push(state);
        const count = pages(state);
        return { data: [], meta: { page: state.page, pages: count, limit: state.limit, total: count * state.limit } };
      },
    }));
    current.list = list;
    return <input aria-label="Search" {...list.searchProps} />;
  }
  const router = createMemoryRouter([{ path: '/list', element: <Probe /> }], { initialEntries: [url] });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, asked, list: () => current.list!, search: () => router.state.location.search };
}

describe('useServerList', () => {
  it('reads search, filters, page, size and sort from the URL', () => {
    const { list } = renderList('/list?search=ada&status=active&owner=kim&sort=name&order=asc&page=2&limit=25');
    expect(list().state).toEqual({ search: 'ada', status: 'active', owner: 'kim', page: 2, limit: 25, sort: 'name', order: 'asc' });
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveProperty('value', 'ada');
    expect(list().filtered).toBe(true);
  });

  it('falls back to the defaults for values a link may carry but the list does not accept', () => {
    const { list } = renderList('/list?status=deleted&sort=password&order=up&page=-3&limit=7');
    expect(list().state).toEqual(SPEC.defaults);
    expect(list().filtered).toBe(false);
  });

  it('writes choices to the URL without the defaults, back to page 1 on a new filter or sort', async () => {
    const { list, search, router } = renderList('/list');
    expect(search()).toBe('');
    act(() => list().setPage(3));
    expect(search()).toBe('?page=3');
    act(() => list().update({ status: 'active' }));
    expect(search()).toBe('?status=active');
    act(() => list().sortBy('name'));
    expect(search()).toBe('?status=active&sort=name&order=asc');
    act(() => list().sortBy('name'));
    expect(search()).toBe('?status=active&sort=name');
    act(() => list().update({ limit: 25 }));
    expect(list().state).toMatchObject({ limit: 25, page: 1 });
    act(() => list().clearFilters());
    expect(search()).toBe('?sort=name&limit=25');
    act(() => list().update({ sort: 'created_at', order: 'desc', limit: 10 }));
    expect(search()).toBe('');
    await waitFor(() => expect(list().meta?.pages).toBe(3));
    expect(router.state.historyAction).toBe('PUSH');
  });

  it('walks back and forward through the choices, search box included', async () => {
    const { list, router } = renderList('/list?search=ada');
    act(() => list().update({ status: 'active' }));
    act(() => list().setSearch('grace'));
    await waitFor(() => expect(list().state.search).toBe('grace'));
    act(() => list().setPage(2));
    await act(() => router.navigate(-1));
    expect(list().state).toMatchObject({ search: 'grace', status: 'active', page: 1 });
    // The search replaced its entry, so one more step back is where the search was 'ada'.
    await act(() => router.navigate(-1));
    expect(list().state).toMatchObject({ search: 'ada', status: 'all' });
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveProperty('value', 'ada');
    await act(() => router.navigate(1));
    expect(list().state).toMatchObject({ search: 'grace', status: 'active' });
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveProperty('value', 'grace');
  });

  it('sends a quickly typed search once, 300 ms after the last key, and starts on page 1', async () => {
    const { list, search, asked, router } = renderList('/list?page=2');
    await waitFor(() => expect(asked).toHaveLength(1));
    const box = screen.getByRole('textbox', { name: 'Search' });
    for (const text of ['a', 'ad', 'ada ']) fireEvent.change(box, { target: { value: text } });
    expect(box).toHaveProperty('value', 'ada ');
    expect(search()).toBe('?page=2');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(search()).toBe('?page=2');
    await waitFor(() => expect(search()).toBe('?search=ada'));
    expect(router.state.historyAction).toBe('REPLACE');
    await waitFor(() => expect(asked).toHaveLength(2));
    expect(asked.map((state) => state.search)).toEqual(['', 'ada']);
    expect(list().state.page).toBe(1);
    // The box keeps what was typed, trailing space included.
    expect(box).toHaveProperty('value', 'ada ');
  });

  it('never navigates back to the list when the user leaves for a page that is loading while a search waits', async () => {
    // The next page is a lazy one still loading: the router keeps this list on screen meanwhile, and the search
    // must not navigate back here (it goes out before the click that leaves).
    let loaded!: (page: { default: () => ReactElement }) => void;
    const Elsewhere = lazy(() => new Promise<{ default: () => ReactElement }>((resolve) => (loaded = resolve)));
    const current: { location?: string } = {};
    function Probe() {
      const list = useServerList(SPEC, (state) => ({
        queryKey: ['/api/test', state],
        queryFn: async (): Promise<Answer> => ({ data: [], meta: { page: 1, pages: 1, limit: 10, total: 0 } }),
      }));
      return (
        <>
          <input aria-label="Search" {...list.searchProps} />
          <Link to="/elsewhere">Leave</Link>
        </>
      );
    }
    function Where() {
      const location = useLocation();
      current.location = location.pathname + location.search;
      return null;
    }
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/list']}>
          <Where />
          <Suspense fallback={<p>Loading</p>}>
            <Routes>
              <Route path="/list" element={<Probe />} />
              <Route path="/elsewhere" element={<Elsewhere />} />
            </Routes>
          </Suspense>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    vi.useFakeTimers();
    try {
      fireEvent.change(screen.getByRole('textbox', { name: 'Search' }), { target: { value: 'ada' } });
      fireEvent.click(screen.getByRole('link', { name: 'Leave' }));
      await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS * 2));
    } finally {
      vi.useRealTimers();
    }
    await act(async () => loaded({ default: () => <p>Elsewhere</p> }));
    await screen.findByText('Elsewhere');
    expect(current.location).toBe('/elsewhere');
  });

  it('drops a search still waiting when the user goes Back or Forward', async () => {
    const { search } = renderList('/list?page=2');
    vi.useFakeTimers();
    try {
      fireEvent.change(screen.getByRole('textbox', { name: 'Search' }), { target: { value: 'ada' } });
      window.dispatchEvent(new PopStateEvent('popstate'));
      await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS * 2));
    } finally {
      vi.useRealTimers();
    }
    expect(search()).toBe('?page=2');
  });

  it('builds a change made before the last one is shown on that one, not on the list on screen', async () => {
    // E.g. a sort clicked while the list still loads for the role just chosen: the role must stay.
    const current: { list?: ServerList<Filters, Sort, Answer>; location?: string } = {};
    function Probe() {
      current.list = useServerList(SPEC, (state) => ({
        queryKey: ['/api/test', state],
        queryFn: async (): Promise<Answer> => ({ data: [], meta: { page: 1, pages: 5, limit: 10, total: 50 } }),
      }));
      const location = useLocation();
      current.location = location.pathname + location.search;
      return null;
    }
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/list?page=2']}>
          <Routes>
            <Route path="/list" element={<Probe />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const shown = current.list!;
    act(() => {
      shown.update({ status: 'active' });
      shown.sortBy('name');
      shown.update({ owner: 'kim' }, { replace: true });
    });
    expect(current.location).toBe('/list?status=active&owner=kim&sort=name&order=asc');
    const sorted = current.list!;
    act(() => {
      sorted.setPage(3);
      sorted.sortBy('name');
    });
    expect(current.location).toBe('/list?status=active&owner=kim&sort=name');
    const last = current.list!;
    act(() => {
      last.setPage(4);
      last.clearFilters();
    });
    expect(current.location).toBe('/list?sort=name');
  });

  it('keeps keys typed while its own search is still on the way to the URL', async () => {
    const current: { list?: ServerList<Filters, Sort, Answer> } = {};
    function Probe() {
      current.list = useServerList(SPEC, (state) => ({
        queryKey: ['/api/test', state],
        queryFn: async (): Promise<Answer> => ({ data: [], meta: { page: 1, pages: 1, limit: 10, total: 0 } }),
      }));
      return <input aria-label="Search" {...current.list.searchProps} />;
    }
    // A slow route loader holds every navigation back, as a busy browser does.
    const slow = () => new Promise<null>((resolve) => setTimeout(() => resolve(null), 200));
    const router = createMemoryRouter([{ path: '/list', element: <Probe />, loader: slow, HydrateFallback: () => null }], {
      initialEntries: ['/list'],
    });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const box = await screen.findByRole('textbox', { name: 'Search' });
    fireEvent.change(box, { target: { value: 'ad' } });
    await new Promise((resolve) => setTimeout(resolve, 350));
    fireEvent.change(box, { target: { value: 'ada' } });
    await waitFor(() => expect(router.state.location.search).toBe('?search=ad'));
    expect(box).toHaveProperty('value', 'ada');
    await waitFor(() => expect(router.state.location.search).toBe('?search=ada'), { timeout: 2000 });
    expect(box).toHaveProperty('value', 'ada');
  });

  it("moves a page that no longer exists to the last one, replacing the link's entry", async () => {
    const { list, search, router } = renderList('/list?status=active&page=9', { pages: () => 4 });
    await waitFor(() => expect(search()).toBe('?status=active&page=4'));
    expect(router.state.historyAction).toBe('REPLACE');
    await waitFor(() => expect(list().meta?.page).toBe(4));
  });

  it("never judges a page on the previous query's answer", async () => {
    const { list, search, router } = renderList('/list', { pages: (state) => (state.status === 'active' ? 5 : 1) });
    await waitFor(() => expect(list().meta?.pages).toBe(1));
    await act(() => router.navigate('/list?status=active&page=3'));
    await waitFor(() => expect(list().meta?.pages).toBe(5));
    expect(search()).toBe('?status=active&page=3');
  });

  it('clamps an empty result to page 1', async () => {
    const { search } = renderList('/list?page=2', { pages: () => 0 });
    await waitFor(() => expect(search()).toBe(''));
  });

  it('with a storage key, opens a bare link as last left and writes it into the URL', async () => {
    localStorage.setItem('test_list', JSON.stringify({ ...SPEC.defaults, status: 'active', page: 2, limit: 25 }));
    const { list, search, asked } = renderList('/list', { spec: STORED });
    expect(list().state).toMatchObject({ status: 'active', page: 2, limit: 25 });
    await waitFor(() => expect(search()).toBe('?status=active&page=2&limit=25'));
    act(() => list().update({ owner: 'kim' }));
    expect(JSON.parse(localStorage.getItem('test_list')!)).toMatchObject({ status: 'active', owner: 'kim', page: 1, limit: 25 });
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ owner: 'kim' }));
    // Never a request for the defaults first.
    expect(asked.every((state) => state.status === 'active')).toBe(true);
  });

  it('with a storage key, lets a link win over what is stored', () => {
    localStorage.setItem('test_list', JSON.stringify({ ...SPEC.defaults, status: 'active' }));
    const { list } = renderList('/list?owner=kim', { spec: STORED });
    expect(list().state).toMatchObject({ status: 'all', owner: 'kim' });
  });

  it('with a prefix, shares the query string with another list', async () => {
    const { list, search } = renderList('/list?other_page=2&mine_page=3', { spec: { ...SPEC, prefix: 'mine_' } });
    expect(list().state.page).toBe(3);
    act(() => list().update({ status: 'active' }));
    expect(search()).toBe('?other_page=2&mine_status=active');
  });

  it('keeps parameters that are not its own', () => {
    const { list, search } = renderList('/list?tab=remote');
    act(() => list().update({ status: 'active' }));
    expect(search()).toBe('?tab=remote&status=active');
  });

  it('passes the other query options on, and lets a filter pick the endpoint', async () => {
    const asked: string[] = [];
    const current: { list?: ServerList<Filters, Sort, Answer> } = {};
    function Probe() {
      current.list = useServerList<Filters, Sort, Answer>(SPEC, (state) => ({
        queryKey: [`/api/${state.status}`, state],
        queryFn: async () => {
          asked.push(state.status);
          return { data: [], meta: { page: 1, pages: 1, limit: 10, total: 0 } };
        },
        enabled: state.owner !== 'nobody',
      }));
      return null;
    }
    const router = createMemoryRouter([{ path: '/list', element: <Probe /> }], { initialEntries: ['/list?owner=nobody'] });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    act(() => current.list!.update({ status: 'active' }));
    act(() => current.list!.update({ owner: '' }));
    await waitFor(() => expect(asked).toEqual(['active']));
  });

  it('refreshes every page of the list', async () => {
    const { list, asked } = renderList('/list');
    await waitFor(() => expect(asked).toHaveLength(1));
    await act(() => list().refresh());
    expect(asked).toHaveLength(2);
  });
});
