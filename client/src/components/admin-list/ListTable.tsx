import { ActionIcon, Loader, Menu, Table, TableTdProps } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import { Key, ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { MessageId } from '../../i18n/message-id';
import { SortableTh } from '../SortableTh';
import classes from './list-table.module.css';
import { RowAction, RowActionItem, RowActions } from './RowAction';
import type { TableSorting } from './use-server-list';
import { useTableFit } from './use-table-fit';

/** How a cell is drawn: `narrow` when the table has given way as far as it can (a phone), the first column too. */
export interface CellLayout {
  narrow: boolean;
}

interface ColumnBase<Row> {
  /** The heading; the caption of the fact when the column folds. */
  label: MessageId;
  /** What the column shows for a row. */
  cell: (row: Row, layout: CellLayout) => ReactNode;
  /** The cell's test id: on the cell, or on the fact when the column folds. */
  testId?: string;
  /** The cell's own props (no wrapping, widths). */
  td?: TableTdProps;
}

/**
 * A column of an admin table. A column with `fold` is a secondary fact: when the table is wider than its box, such
 * columns leave, the lowest `fold` first, and show under the first column's content, captioned by their heading. A
 * column that sorts never folds: its heading is its sort.
 */
export type ListColumn<Row, S extends string> = ColumnBase<Row> & ({ sort: S; fold?: never } | { sort?: never; fold?: number });

interface ListTableProps<Row, S extends string> {
  rows: Row[];
  /** The row's React key: its id unless said otherwise. */
  rowKey?: (row: Row) => Key;
  /** The row's test id and data attributes. */
  rowProps?: (row: Row) => Record<`data-${string}`, string | undefined>;
  /** The first column is the row's primary fact: it stays in view while the others scroll sideways. */
  columns: Array<ListColumn<Row, S>>;
  sorting: TableSorting<S>;
  /**
   * The Actions column, always in view: the row's actions as icon buttons, or, once the table has given way as far as
   * it can, as one menu (when there are two or more) named by the row (`name`: its e-mail, key, version …).
   */
  actions?: {
    items: (row: Row) => Array<RowActionItem | false | null | undefined>;
    name: (row: Row) => string;
  };
  testId: string;
}

/** What a screen gives its table: the rows and their sort, the row whose action is under way (its buttons wait), and a handler per row action. */
export type ScreenTableProps<Row, S extends string, Action extends string> = {
  rows: Row[];
  sorting: TableSorting<S>;
  busyId?: number | null;
} & Record<Action, (row: Row) => void>;

/** A sortable column header bound to the list's sort. */
function SortHeader<S extends string>({
  sorting,
  column,
  label,
  className,
}: {
  sorting: TableSorting<S>;
  column: S;
  label: MessageId;
  className?: string;
}) {
  return (
    <SortableTh active={sorting.sort === column} order={sorting.order} onSort={() => sorting.onSort(column)} className={className}>
      <FormattedMessage id={label} />
    </SortableTh>
  );
}

/** The row's actions folded into one menu. */
function ActionMenu({ items, name }: { items: RowActionItem[]; name: string }) {
  const intl = useIntl();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={intl.formatMessage({ id: 'admin.list.rowActions' }, { name })}>
          <IconDots size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {items.map(({ icon: Icon, label, tooltip, onClick, color, loading, disabled }) => (
          <Menu.Item
            key={label}
            color={color}
            disabled={disabled || loading}
            leftSection={loading ? <Loader size={14} /> : <Icon size={16} />}
            onClick={onClick}
          >
            {tooltip}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * An admin list's table, fitted to its box: when the table is wider than the box, the secondary columns fold under
 * the first one, one by one; then the row actions fold into a menu and the first column narrows. Whatever is still
 * wider scrolls sideways under the first column and the Actions column, which stay in view, and a shadow at their
 * edge shows that there is more.
 */
export function ListTable<Row, S extends string>({
  rows,
  rowKey = (row) => (row as { id: Key }).id,
  rowProps,
  columns,
  sorting,
  actions,
  testId,
}: ListTableProps<Row, S>) {
  const folding = columns
    .filter((column) => column.fold !== undefined)
    .sort((a, b) => (a.fold ?? 0) - (b.fold ?? 0))
    .map((column) => column.label);
  const { frame, boxRef, width, step, onScroll } = useTableFit(folding.length + 1);
  const folded = new Set(folding.slice(0, step));
  const narrow = step > folding.length;
  const [first, ...rest] = columns;
  const shown = rest.filter((column) => !folded.has(column.label));
  const under = rest.filter((column) => folded.has(column.label));
  const layout: CellLayout = { narrow };
  // On a phone the first column takes about two fifths of the box, so that the columns beside it can be read.
  const firstWidth = narrow && width > 0 ? Math.max(120, Math.round(width * 0.42)) : undefined;

  const heading = (column: ListColumn<Row, S>, className?: string) =>
    column.sort !== undefined ? (
      <SortHeader key={column.label} sorting={sorting} column={column.sort} label={column.label} className={className} />
    ) : (
      <Table.Th key={column.label} className={className}>
        <FormattedMessage id={column.label} />
      </Table.Th>
    );

  return (
    <div ref={frame} className={classes.frame} data-with-actions={actions ? '' : undefined}>
      <div ref={boxRef} className={classes.box} onScroll={onScroll}>
        <Table
          className={classes.table}
          verticalSpacing="sm"
          horizontalSpacing="xs"
          withRowBorders={false}
          highlightOnHover
          data-testid={testId}
          data-fit-step={step}
        >
          <Table.Thead>
            <Table.Tr>
              {heading(first, classes.start)}
              {shown.map((column) => heading(column))}
              {actions && (
                <Table.Th className={classes.end}>
                  <FormattedMessage id="admin.list.actions" />
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => {
              const items = actions?.items(row).filter((item): item is RowActionItem => Boolean(item)) ?? [];
              return (
                <Table.Tr key={rowKey(row)} {...rowProps?.(row)}>
                  <Table.Td {...first.td} className={classes.start} data-testid={first.testId}>
                    <div className={narrow ? classes.narrow : undefined} style={{ width: firstWidth }}>
                      {first.cell(row, layout)}
                      {under.length > 0 && (
                        <dl className={classes.facts}>
                          {under.map((column) => (
                            <div key={column.label} className={classes.fact}>
                              <dt>
                                <FormattedMessage id={column.label} />
                              </dt>
                              <dd data-testid={column.testId}>{column.cell(row, layout)}</dd>
                            </div>
                          ))}
                        </dl>
                      )}
                    </div>
                  </Table.Td>
                  {shown.map((column) => (
                    <Table.Td key={column.label} {...column.td} data-testid={column.testId}>
                      {column.cell(row, layout)}
                    </Table.Td>
                  ))}
                  {actions && (
                    <Table.Td className={classes.end}>
                      {narrow && items.length > 1 ? (
                        <ActionMenu items={items} name={actions.name(row)} />
                      ) : (
                        <RowActions>
                          {items.map((item) => (
                            <RowAction key={item.label} {...item} />
                          ))}
                        </RowActions>
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </div>
    </div>
  );
}
