import { IconPencil, IconTrash } from '@tabler/icons-react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { ListColumn, ListTable } from './ListTable';

interface Person {
  id: number;
  email: string;
  role: string;
  status: string;
  note: string;
}

const ROWS: Person[] = [{ id: 1, email: 'ada@example.com', role: 'admin', status: 'active', note: 'first user' }];

const COLUMNS: Array<ListColumn<Person, 'name' | 'role'>> = [
  { sort: 'name', label: 'users.columns.user', cell: (row) => row.email },
  { sort: 'role', label: 'users.columns.role', cell: (row) => row.role },
  { label: 'users.columns.email', fold: 2, testId: 'note', cell: (row) => row.note },
  { label: 'users.columns.status', fold: 1, cell: (row) => row.status },
];

const edit = vi.fn();

function renderTable() {
  return renderWithProviders(
    <ListTable
      rows={ROWS}
      rowKey={(row) => row.id}
      rowProps={(row) => ({ 'data-testid': `row-${row.id}` })}
      columns={COLUMNS}
      sorting={{ sort: 'name', order: 'asc', onSort: () => undefined }}
      testId="people"
      actions={{
        name: (row) => row.email,
        items: (row) => [
          { icon: IconPencil, tooltip: 'Edit', label: `Edit ${row.email}`, onClick: edit },
          { icon: IconTrash, tooltip: 'Delete', label: `Delete ${row.email}`, onClick: () => undefined },
        ],
      }}
    />,
  );
}

/** Lays the table out as if every column took `columnWidth` px in a box `boxWidth` px wide (jsdom has no layout). */
function layOut(columnWidth: number, boxWidth: number) {
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return this.querySelectorAll(':scope > table > thead th').length * columnWidth;
  });
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(boxWidth);
}

const headings = () => screen.getAllByRole('columnheader').map((th) => th.textContent);

describe('ListTable', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows every column, and the actions as buttons, when the table fits its box', () => {
    renderTable();
    expect(headings()).toEqual(['User', 'Role', 'Email', 'Status', 'Actions']);
    expect(screen.getByRole('button', { name: 'Edit ada@example.com' })).toBeTruthy();
  });

  it('folds the secondary columns under the first one, lowest priority first, until the table fits', () => {
    // Five columns of 100 px in 350 px: Status (fold 1), then Email (fold 2) leave, and three columns fit.
    layOut(100, 350);
    renderTable();
    expect(headings()).toEqual(['User', 'Role', 'Actions']);
    const first = within(screen.getByTestId('row-1')).getAllByRole('cell')[0];
    expect(within(first).getByText('Status')).toBeTruthy();
    expect(within(first).getByTestId('note').textContent).toBe('first user');
    // The actions stay buttons while the table fits without the menu.
    expect(screen.getByRole('button', { name: 'Delete ada@example.com' })).toBeTruthy();
  });

  it('folds a row’s actions into one menu named by the row when the table still does not fit', async () => {
    layOut(100, 250);
    renderTable();
    expect(headings()).toEqual(['User', 'Role', 'Actions']);
    expect(screen.queryByRole('button', { name: 'Edit ada@example.com' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Actions for ada@example.com' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    expect(edit).toHaveBeenCalledTimes(1);
  });
});
