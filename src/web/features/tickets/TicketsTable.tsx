import { memo, useEffect, useMemo, useRef } from 'react';
import { Checkbox, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { isoToUs } from '../../../shared/dates';
import { isEvidenced } from '../../../shared/evidence';
import { clearToDig, expiryLabel, ticketExpiry } from '../../../shared/dig-safe';
import { companyDay } from '../../api/session';
import type { TicketSortColumn } from '../../../shared/sorting';
import type { TicketRow } from '../../../shared/tickets.schemas';
import { SortableTh } from '../../components/SortableTh';
import type { SortState } from '../../components/useStoredSort';
import { DocCircle } from './DocCircle';
import classes from './TicketsTable.module.css';

export const COLUMNS: { key: TicketSortColumn; label: string; width: number }[] = [
  { key: 'pole_name', label: 'Pole', width: 80 },
  { key: 'line_name', label: 'Line', width: 70 },
  { key: 'work_orders', label: 'Work Order', width: 130 },
  { key: 'assigned_to_name', label: 'WF Crew', width: 130 },
  { key: 'gps', label: 'GPS', width: 62 },
  { key: 'street_address', label: 'Address', width: 200 },
  { key: 'dig_safe_required', label: 'Digsafe', width: 86 },
  { key: 'nra_required', label: 'NRA/DNR', width: 96 },
  { key: 'status', label: 'Status', width: 250 },
  { key: 'created_date', label: 'Date Added', width: 110 },
  { key: 'actual_completion_date', label: 'Date Completed', width: 140 },
  { key: 'due_date', label: 'Due Date', width: 100 },
];

/** A job page kept on a phone by an earlier release has rows without work orders: they show none until refreshed. */
export const workOrdersText = (t: Pick<TicketRow, 'work_orders'>) => (t.work_orders ?? []).join(', ');

const ROW_HEIGHT = 41;
/** The keys of a row, said once for the table (not on every row). */
const HINT_ID = 'tickets-table-keys';
const initialHeight = () => (typeof window === 'undefined' ? 600 : Math.max(320, window.innerHeight - 300));
const SHORT = new Intl.DateTimeFormat('en-US', { month: '2-digit', day: '2-digit', year: 'numeric' });
function shortInstant(v: string | null): string {
  if (!v) return '--';
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? '--' : SHORT.format(d);
}

/**
 * "Not clear to dig" and the papers' most urgent expiry (docs/product/records.md §5), from the row's fields on
 * the company's day (src/shared/dig-safe.ts): plain spans like Billed, the reason and date on hover.
 */
function DigMarks({ t }: { t: TicketRow }) {
  const today = companyDay();
  const clear = clearToDig(t, today);
  const expiry = ticketExpiry(t, today);
  return (
    <>
      {clear.clear_to_dig === false && (
        <span className={classes.notClear} title={clear.clear_to_dig_reason ?? undefined} data-testid="not-clear-badge">
          Not clear to dig
        </span>
      )}
      {expiry && (
        <span className={expiry.state === 'expired' ? classes.notClear : classes.expiry} title={`Permits and dig safe: ${expiryLabel(expiry)} (${isoToUs(expiry.expires_on)})`}>
          Permits: {expiryLabel(expiry)}
        </span>
      )}
    </>
  );
}

const Row = memo(function Row({
  t,
  selectable,
  selected,
  onToggle,
  onOpen,
  index,
  evidenceRequired,
}: {
  evidenceRequired: number;
  t: TicketRow;
  selectable: boolean;
  selected: boolean;
  onToggle: (id: number) => void;
  onOpen: (id: number) => void;
  index: number;
}) {
  const gps = t.geo_lat != null && t.geo_lon != null;
  return (
    <tr
      className={selected ? `${classes.row} ${classes.selected}` : classes.row}
      data-index={index}
      data-ticket-id={t.id}
      onClick={() => onOpen(t.id)}
      // One Tab stop per row (decision 042): Enter opens the ticket, Space ticks it as its checkbox
      // does (the checkbox stays for the mouse and for a screen reader's table reading).
      onKeyDown={(e) => {
        if (e.target !== e.currentTarget) return;
        if (e.key === 'Enter') onOpen(t.id);
        else if (e.key === ' ' && selectable) {
          e.preventDefault();
          onToggle(t.id);
        }
      }}
      tabIndex={0}
      aria-label={`Ticket pole ${t.pole_name ?? ''} line ${t.line_name ?? ''}${selected ? ', ticked' : ''}`}
    >
      {selectable && (
        <td onClick={(e) => e.stopPropagation()} className={classes.checkCell}>
          <input
            type="checkbox"
            tabIndex={-1}
            className={classes.check}
            aria-label={`Select pole ${t.pole_name ?? ''}`}
            checked={selected}
            onChange={() => onToggle(t.id)}
          />
        </td>
      )}
      <td>{t.pole_name ?? '--'}</td>
      <td>{t.line_name ?? '--'}</td>
      <td title={workOrdersText(t) || undefined}>{workOrdersText(t)}</td>
      <td>{t.assigned_to_name ? t.assigned_to_name : <span className={classes.dimmed}>Unassigned</span>}</td>
      <td>{gps ? <IconMapPin size={18} color="var(--mantine-color-blue-6)" aria-label={`GPS ${t.geo_lat}, ${t.geo_lon}`} role="img" /> : null}</td>
      <td title={t.street_address ?? undefined}>{t.street_address ?? ''}</td>
      <td>
        <DocCircle what="Digsafe" required={t.dig_safe_required} url={t.dig_safe_url} />
      </td>
      <td>
        <DocCircle what="NRA/DNR" required={t.nra_required} url={t.nra_url} />
      </td>
      <td>
        <span className={t.status === 'Complete' ? classes.complete : undefined}>{t.status}</span>
        {t.invoice_number && (
          // docs/product/billing.md §5: billed tickets are marked; the invoice number shows on hover and in the window.
          <span className={classes.billed} title={`Billed on ${t.invoice_number}${t.unlocked_at ? ' (unlocked)' : ''}`} data-testid="billed-badge">
            {t.unlocked_at ? 'Billed · unlocked' : 'Billed'}
          </span>
        )}
        <DigMarks t={t} />
        {isEvidenced(t, evidenceRequired) === false && (
          // docs/product/records.md §8: Complete without the photos required as evidence.
          <span className={classes.notClear} title={`${t.evidence_photo_count} of ${evidenceRequired} photos at the pole`} data-testid="evidence-missing">
            Evidence missing
          </span>
        )}
      </td>
      <td>{shortInstant(t.created_date)}</td>
      <td>{shortInstant(t.actual_completion_date)}</td>
      <td>{t.due_date ? isoToUs(t.due_date) : '--'}</td>
    </tr>
  );
});

/** A column header; memoised so that a re-sort re-renders only the headers whose arrow changes. */
const Header = memo(function Header({
  column,
  label,
  active,
  direction,
  onSort,
}: {
  column: TicketSortColumn;
  label: string;
  active: boolean;
  direction: SortState<TicketSortColumn>['direction'];
  onSort: (c: TicketSortColumn) => void;
}) {
  return (
    <SortableTh active={active} direction={active ? direction : 'asc'} onSort={() => onSort(column)}>
      {label}
    </SortableTh>
  );
});

/**
 * The job's tickets (docs/product/screens.md §5 Job detail). Only the rows in view (plus a few) are in the DOM, so a
 * job of 5,000 tickets scrolls, filters and re-sorts without delay; the header stays in place.
 */
export function TicketsTable({
  rows,
  sort,
  onSort,
  selectable,
  selected,
  onToggle,
  onToggleAll,
  onOpen,
  evidenceRequired = 1,
}: {
  rows: TicketRow[];
  /** The company's evidence_photos_required: a Complete row short of it is marked "Evidence missing". */
  evidenceRequired?: number;
  sort: SortState<TicketSortColumn>;
  onSort: (c: TicketSortColumn) => void;
  selectable: boolean;
  selected: ReadonlySet<number>;
  onToggle: (id: number) => void;
  onToggleAll: (ids: number[] | null) => void;
  onOpen: (id: number) => void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // A few rows beyond the view: every re-sort mounts all of them anew.
    overscan: 4,
    getItemKey: (i) => rows[i].id,
    // The box's height as its CSS gives it (max(320px, 100dvh - 300px)): the first render already
    // holds the rows in view, instead of none and a second render once the box is measured.
    initialRect: { width: 0, height: initialHeight() },
  });
  const items = virtualizer.getVirtualItems();
  const top = items.length ? items[0].start : 0;
  const bottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;

  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [sort.column, sort.direction]);

  // The column headers change with the sort order only (not with the rows a deferred re-sort brings),
  // and then only the two whose arrow changes re-render.
  const headers = useMemo(
    () =>
      COLUMNS.map((c) => (
        <Header key={c.key} column={c.key} label={c.label} active={sort.column === c.key} direction={sort.direction} onSort={onSort} />
      )),
    [sort.column, sort.direction, onSort],
  );

  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const someSelected = !allSelected && rows.some((r) => selected.has(r.id));
  const width = COLUMNS.reduce((s, c) => s + c.width, selectable ? 40 : 0);

  return (
    <div
      ref={scrollRef}
      data-testid="tickets-scroll"
      style={{ maxHeight: 'max(320px, calc(100dvh - 300px))', overflow: 'auto', border: '1px solid var(--mantine-color-gray-3)', borderRadius: 4 }}
    >
      <VisuallyHidden id={HINT_ID}>{selectable ? 'Enter opens a ticket, Space ticks it.' : 'Enter opens a ticket.'}</VisuallyHidden>
      <Table
        highlightOnHover
        stickyHeader
        style={{ minWidth: width, tableLayout: 'fixed' }}
        aria-rowcount={rows.length + 1}
        aria-label="Tickets"
        aria-describedby={HINT_ID}
      >
        <colgroup>
          {selectable && <col style={{ width: 40 }} />}
          {COLUMNS.map((c) => (
            <col key={c.key} style={{ width: c.width }} />
          ))}
        </colgroup>
        <Table.Thead>
          <Table.Tr>
            {selectable && (
              <Table.Th>
                <Checkbox
                  aria-label="Select all shown tickets"
                  checked={allSelected}
                  indeterminate={someSelected}
                  onChange={() => onToggleAll(allSelected ? null : rows.map((r) => r.id))}
                />
              </Table.Th>
            )}
            {headers}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {top > 0 && (
            <tr aria-hidden>
              <td style={{ height: top, padding: 0 }} colSpan={COLUMNS.length + (selectable ? 1 : 0)} />
            </tr>
          )}
          {items.map((v) => {
            const t = rows[v.index];
            return (
              <Row
                key={t.id}
                t={t}
                index={v.index}
                selectable={selectable}
                selected={selected.has(t.id)}
                onToggle={onToggle}
                onOpen={onOpen}
                evidenceRequired={evidenceRequired}
              />
            );
          })}
          {bottom > 0 && (
            <tr aria-hidden>
              <td style={{ height: bottom, padding: 0 }} colSpan={COLUMNS.length + (selectable ? 1 : 0)} />
            </tr>
          )}
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={COLUMNS.length + (selectable ? 1 : 0)}>
                <Text c="dimmed" ta="center" py="md">
                  No tickets match these filters.
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </div>
  );
}
