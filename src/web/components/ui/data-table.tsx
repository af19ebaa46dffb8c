import { Fragment, type HTMLAttributes, type ReactNode } from 'react';

/**
 * THE back office's list (and the customer's bulk payment rows): a table from 768 px, one card per
 * row below it, from one DOM.
 *
 * Why one DOM: a phone reads each row whole, its actions in view, with no sideways scrolling; a
 * desktop compares rows in columns; assistive technology and tests meet every row once, as a table
 * row, at every width (the table, rowgroup, row and cell roles are stated explicitly because some
 * browsers drop a table's semantics once CSS displays it as blocks).
 *
 * Usage:
 *
 *   <DataTable
 *     caption="Users, page 1"                     // the table's name (visually hidden unless captionVisible)
 *     rows={users}
 *     rowKey={(user) => user._id}
 *     columns={[
 *       { header: 'Name', cell: (user) => user.name, kind: 'title' },        // the card's heading line
 *       { header: 'Email', cell: (user) => user.email },                     // 'Email' labels it on a card
 *       { header: 'Balance', cell: (user) => money(user.balance), align: 'right' },
 *       { header: 'Actions', cell: (user) => <Link ...>View</Link>, kind: 'actions' },  // the card's foot
 *     ]}
 *   />
 *
 * - `header` is the column heading; when it is not plain text (a sort button), give `label` for
 *   the card's field label. `headerHidden` keeps a heading for screen readers only (e.g. "Actions").
 * - `kind: 'title'` (no label on a card, larger text), `'actions'` (no label, a row of buttons at
 *   the card's foot), or the default `'field'` (a label and its value on one line of the card).
 * - `kind: 'figure'`: the card's headline figure (an amount), no label, at the right end of the
 *   title's line on a phone, wherever its column is in the table. In a table with a figure, the
 *   title cells share that first line (a row's number at its width, then the last title, a name,
 *   in the room left); the other cells follow in their order.
 * - `kind: 'note'`: a line across the card with no label (a row's problems, in words that say
 *   what they are); a cell holding only screen-reader text (`<span className="sr-only">None</span>`)
 *   takes no room on a card.
 * - `rowHeader: true` makes that column's cells row headers (`th scope="row"`).
 * - `sortable: true` on the table keeps the headings visible on a phone, as a row of buttons above
 *   the cards (use it when headings hold sort buttons).
 * - `rowProps(row)` adds attributes to a row (`data-testid`, a className).
 * - `footer` is a tfoot row (totals): an array of cells in column order; `footerProps` adds
 *   attributes to that row. Its first cell is a row header when the first column's cells are.
 * - `detail(row)` opens a row of its own right under a row, across every column (a review panel
 *   opened from the row's button): return null while it is closed. On a phone it is a card
 *   joined to the row's card.
 * Long values (ids, emails, hashes) wrap inside their card instead of widening the page; wrap an
 * id in `<TruncatedId>` to keep it on one line, an email address in `<EmailAddress>` (email-address.tsx)
 * so it breaks before its `@` or a `.`, not mid-word. A table wider than its card scrolls inside
 * the card (the wrapper is `relative`, so even visually hidden text past its edge stays inside it
 * instead of widening the page).
 */
export interface DataColumn<Row> {
  header: ReactNode;
  /** The card's label for this field when `header` is not plain text. */
  label?: string;
  cell: (row: Row, index: number) => ReactNode;
  kind?: 'title' | 'figure' | 'field' | 'note' | 'actions';
  align?: 'left' | 'right';
  headerHidden?: boolean;
  rowHeader?: boolean;
  /** Extra classes for this column's cells (e.g. `whitespace-nowrap` from 768 px). */
  className?: string;
  /** `aria-sort` of this column's heading, when the table is sorted by it. */
  sort?: 'ascending' | 'descending';
}

export interface DataTableProps<Row> {
  caption: string;
  captionVisible?: boolean;
  columns: Array<DataColumn<Row>>;
  rows: readonly Row[];
  rowKey: (row: Row, index: number) => string;
  rowProps?: (row: Row, index: number) => HTMLAttributes<HTMLTableRowElement> & { 'data-testid'?: string };
  sortable?: boolean;
  footer?: ReactNode[];
  footerProps?: HTMLAttributes<HTMLTableRowElement> & { 'data-testid'?: string };
  detail?: (row: Row, index: number) => ReactNode;
  className?: string;
}

const alignClass = (align: 'left' | 'right' | undefined) => (align === 'right' ? 'md:text-right' : '');

// Below 768 px: a block per row (a card), each field a label/value line. The label is shown on a
// phone only and hidden from assistive technology, which has the column's heading already: a
// cell's accessible name stays its value.
const cellClass = (kind: DataColumn<unknown>['kind']) => {
  if (kind === 'title') return 'block pb-1 text-base font-semibold text-slate-900 break-words md:table-cell md:text-sm md:font-normal';
  if (kind === 'figure') return 'block pb-1 text-base font-semibold tabular-nums break-words md:table-cell md:text-sm md:font-normal';
  if (kind === 'note') return 'block break-words md:table-cell';
  if (kind === 'actions') return 'block pt-3 md:table-cell md:pt-3';
  return 'grid grid-cols-[minmax(6rem,35%)_minmax(0,1fr)] gap-x-3 py-0.5 break-words md:table-cell';
};

// A card with a figure is a wrapping row of cells below 768 px. Its first line: the titles (any
// before the last, a row's number, at their width; the last, a name, takes the room left and wraps
// in it) and the figure at the right (at most 60% of the line, so a name keeps room). Every other
// cell is a whole line under them, in the columns' order.
const FIGURE_ROW = 'max-md:flex max-md:flex-wrap max-md:items-baseline max-md:gap-x-3';
const figureCellClass = (kind: DataColumn<unknown>['kind'], lastTitle: boolean) => {
  if (kind === 'title') return lastTitle ? 'max-md:order-1 max-md:min-w-0 max-md:flex-1' : 'max-md:order-1 max-md:flex-none';
  if (kind === 'figure') return 'max-md:order-2 max-md:ml-auto max-md:max-w-[60%] max-md:flex-none max-md:text-right';
  return 'max-md:order-3 max-md:basis-full';
};

export function DataTable<Row>({
  caption,
  captionVisible,
  columns,
  rows,
  rowKey,
  rowProps,
  sortable,
  footer,
  footerProps,
  detail,
  className = '',
}: DataTableProps<Row>) {
  const figured = columns.some((column) => column.kind === 'figure');
  const lastTitle = columns.map((column) => column.kind).lastIndexOf('title');
  return (
    <div className={`relative max-md:space-y-3 md:overflow-x-auto md:rounded-xl md:border md:border-slate-200 md:bg-white md:shadow-sm ${className}`}>
      <table role="table" className="block w-full text-left text-sm md:table">
        <caption className={captionVisible ? 'block px-1 pb-2 text-left font-semibold text-slate-900 md:table-caption md:px-4 md:pt-3' : 'sr-only'}>
          {caption}
        </caption>
        <thead
          role="rowgroup"
          className={`${sortable ? 'block max-md:mb-3' : 'max-md:sr-only'} md:table-header-group md:border-b md:border-slate-200 md:bg-slate-50`}
        >
          <tr role="row" className={sortable ? 'max-md:flex max-md:flex-wrap max-md:gap-x-4 max-md:gap-y-2' : ''}>
            {columns.map((column, index) => {
              const interactive = typeof column.header !== 'string';
              return (
                <th
                  key={index}
                  role="columnheader"
                  scope="col"
                  aria-sort={column.sort}
                  className={`px-4 py-3 font-semibold text-slate-900 ${alignClass(column.kind === 'actions' || column.kind === 'figure' ? 'right' : column.align)} ${sortable ? (interactive ? 'max-md:block max-md:p-0' : 'max-md:sr-only') : ''}`}
                >
                  {column.headerHidden ? <span className="sr-only">{column.header}</span> : column.header}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody role="rowgroup" className="block max-md:space-y-3 md:table-row-group">
          {rows.map((row, rowIndex) => {
            const { className: rowClass = '', ...extra } = rowProps?.(row, rowIndex) ?? {};
            const opened = detail?.(row, rowIndex) ?? null;
            return (
              <Fragment key={rowKey(row, rowIndex)}>
                <tr
                  role="row"
                  {...extra}
                  className={`block rounded-xl border border-slate-200 bg-white p-4 align-top shadow-sm md:table-row md:rounded-none md:border-0 md:border-b md:border-slate-100 md:p-0 md:shadow-none md:last:border-0 ${figured ? FIGURE_ROW : ''} ${opened === null ? '' : 'max-md:rounded-b-none'} ${rowClass}`}
                >
                  {columns.map((column, index) => {
                    const Cell = column.rowHeader ? 'th' : 'td';
                    const label = column.label ?? (typeof column.header === 'string' ? column.header : '');
                    return (
                      <Cell
                        key={index}
                        role={column.rowHeader ? 'rowheader' : 'cell'}
                        scope={column.rowHeader ? 'row' : undefined}
                        className={`${cellClass(column.kind)} ${figured ? figureCellClass(column.kind, index === lastTitle) : ''} text-slate-900 md:px-4 md:py-3 ${column.rowHeader ? 'font-normal' : ''} ${alignClass(column.kind === 'figure' ? 'right' : column.align)} ${column.className ?? ''}`}
                      >
                        {column.kind === 'actions' ? (
                          <div className="flex flex-wrap items-center gap-2 md:flex-nowrap md:justify-end md:[&_a]:whitespace-nowrap md:[&_button]:whitespace-nowrap">
                            {column.cell(row, rowIndex)}
                          </div>
                        ) : column.kind === 'title' || column.kind === 'figure' || column.kind === 'note' ? (
                          column.cell(row, rowIndex)
                        ) : (
                          <>
                            <CardLabel text={label} />
                            {/* One grid item beside the label, whatever the cell holds (text and a badge stay together). */}
                            <div className="min-w-0">{column.cell(row, rowIndex)}</div>
                          </>
                        )}
                      </Cell>
                    );
                  })}
                </tr>
                {opened === null ? null : (
                  <tr
                    role="row"
                    className="block rounded-b-xl border border-t-0 border-slate-200 bg-white p-4 shadow-sm max-md:-mt-3 max-md:rounded-t-none md:table-row md:rounded-none md:border-0 md:border-b md:border-slate-100 md:p-0 md:shadow-none"
                  >
                    <td role="cell" colSpan={columns.length} className="block md:table-cell md:px-4 md:pb-4 md:pt-0">
                      {opened}
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
        {footer ? (
          <tfoot role="rowgroup" className="block md:table-footer-group md:border-t-2 md:border-slate-300">
            <tr
              role="row"
              {...footerProps}
              className="block rounded-xl border-2 border-slate-300 bg-white p-4 font-semibold md:table-row md:rounded-none md:border-0 md:p-0"
            >
              {footer.map((content, index) => {
                const header = index === 0 && columns[0]?.rowHeader;
                const Cell = header ? 'th' : 'td';
                return (
                  <Cell
                    key={index}
                    role={header ? 'rowheader' : 'cell'}
                    scope={header ? 'row' : undefined}
                    className={`${cellClass(index === 0 ? 'title' : 'field')} text-slate-900 md:px-4 md:py-3 ${alignClass(columns[index]?.align)} ${columns[index]?.className ?? ''}`}
                  >
                    {index === 0 ? (
                      <span className="font-semibold">{content}</span>
                    ) : (
                      <>
                        <CardLabel text={typeof columns[index]?.header === 'string' ? (columns[index]?.header as string) : (columns[index]?.label ?? '')} />
                        <div className="min-w-0">{content}</div>
                      </>
                    )}
                  </Cell>
                );
              })}
            </tr>
          </tfoot>
        ) : null}
      </table>
    </div>
  );
}

function CardLabel({ text }: { text: string }) {
  return (
    <span aria-hidden="true" className="font-semibold text-slate-700 md:hidden">
      {text}
    </span>
  );
}

/**
 * A long identifier (an entry id, a UUID) on one line: shortened with an ellipsis at its start
 * where it does not fit, so its end shows (UUIDv7s made together, a bulk payment's entries, share
 * their first dozen characters: their ends tell them apart); the whole value in its title and for
 * screen readers, and copyable (select the text). The box runs right to left so the ellipsis is on
 * the left; the value itself stays left to right.
 */
export function TruncatedId({ value, className = '' }: { value: string; className?: string }) {
  return (
    <span title={value} dir="rtl" className={`block max-w-full truncate text-left font-mono text-xs ${className}`}>
      <bdi dir="ltr">{value}</bdi>
    </span>
  );
}
