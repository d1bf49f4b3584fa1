import { z } from 'zod';
import { csvCell } from './export';

/**
 * The history contract (docs/product/records.md §1, docs/decisions/044-history-recorded-with-each-change.md): who changed what, when,
 * as GET /tickets/{id}/history and GET /jobs/{id}/history answer it, and how a person reads an
 * entry (the ticket window's History tab, the phone view, the job's history and its CSV).
 */

/** What happened to the record. */
export const HISTORY_ACTIONS = ['create', 'update', 'delete', 'import', 'merge', 'bill', 'unlock'] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];
/** Which kind of record changed. */
export const HISTORY_ENTITIES = ['job', 'ticket', 'crew', 'invoice'] as const;
export type HistoryEntity = (typeof HISTORY_ENTITIES)[number];

/** An old or new value: text, a number, a list of item texts, or a small object (an import's counts). */
const historyValue = z.unknown();

export const historyEntrySchema = z.object({
  id: z.number().int(),
  /** ISO-8601 instant (UTC). */
  at: z.string(),
  /** Who made the change; name '' and id null once that user is deleted. */
  user: z.object({ id: z.number().int().nullable(), name: z.string() }),
  /**
   * The API token the user acted through (another system: accounting, ERP…), null for a change
   * made in the app. Its name stays after the token is revoked.
   */
  api_token: z.object({ id: z.number().int().nullable(), name: z.string() }).nullable(),
  action: z.enum(HISTORY_ACTIONS),
  entity: z.enum(HISTORY_ENTITIES),
  entity_id: z.number().int(),
  /** The ticket an entry of a ticket belongs to (a job's history lists its tickets' entries too). */
  ticket_id: z.number().int().nullable(),
  /** The API's field name (`hospital_name`, `status`, `tasks`); null for a whole record. */
  field: z.string().nullable(),
  /** For a list field (`tasks`, `notes`, `images`…): the items removed (old) and added (new). */
  old: historyValue,
  new: historyValue,
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** The paging of docs/product/scale.md: `limit` (default 100, at most 200) and the `cursor` of the page before. */
export const HISTORY_PAGE = { default: 100, max: 200 } as const;
export const historyQuery = z.object({
  limit: z.coerce.number().int().min(1).max(HISTORY_PAGE.max).default(HISTORY_PAGE.default),
  /** `next_cursor` of the previous page; absent for the newest entries. */
  cursor: z.coerce.number().int().positive().optional(),
});
export type HistoryQuery = z.infer<typeof historyQuery>;

/** Newest first; `next_cursor` is null on the last page. */
export const historyReply = z.object({ entries: z.array(historyEntrySchema), next_cursor: z.number().int().nullable() });
export type HistoryReply = z.infer<typeof historyReply>;

// ---- reading an entry -------------------------------------------------------------------------

const FIELD_LABELS: Record<string, string> = {
  pole: 'Pole',
  status: 'Status',
  completed: 'Completed by',
  due_date: 'Due date',
  assigned_to: 'Assigned to',
  street_address: 'Street address',
  geo_lat: 'Latitude',
  geo_lon: 'Longitude',
  description: 'Description',
  ehasp: 'EHASP',
  ambulance_meetup: 'Ambulance meetup',
  dig_safe_required: 'Dig safe required',
  dig_safe_url: 'Dig safe document',
  nra_required: 'NRA required',
  nra_url: 'NRA document',
  work_orders: 'Work orders',
  notes: 'Notes',
  tasks: 'Tasks',
  permits: 'Permits',
  images: 'Photos',
  billing: 'Billing',
  job_number: 'Job number',
  job_type: 'Job type',
  selected_utility_id: 'Utility',
  foreman_id: 'Foreman',
  work_packet_url: 'Work packet',
  work_contact_phone: 'Work contact phone',
  hospital_name: 'Hospital name',
  hospital_address: 'Hospital address',
  ehasp_override: 'EHASP override',
  arc_rating_override: 'Arc rating override',
  primary_voltage_override: 'Primary voltage override',
  secondary_voltage_override: 'Secondary voltage override',
};

const ACTION_LABELS: Record<HistoryAction, string> = {
  create: 'Created',
  update: 'Changed',
  delete: 'Deleted',
  import: 'Imported',
  merge: 'Merged',
  bill: 'Billed',
  unlock: 'Unlocked',
};

/** 'hospital_name' → 'Hospital name' (a field we do not know is shown as its API name). */
export const historyFieldLabel = (field: string | null): string => (field == null ? '' : (FIELD_LABELS[field] ?? field));

/** A value as a person reads it: '—' for none, a list joined by '; ', an import's counts in words. */
export function historyValueText(value: unknown): string {
  if (value == null || value === '') return '—';
  if (Array.isArray(value)) return value.length ? value.map(historyValueText).join('; ') : '—';
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v != null)
      .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${historyValueText(v)}`)
      .join(', ');
  }
  return String(value);
}

/** Who made the change: 'Dana Office', or 'Dana Office via API token “Billing sync”' for another system. */
export function historyWho(e: Pick<HistoryEntry, 'user' | 'api_token'>): string {
  const person = e.user.name || 'Former user';
  return e.api_token ? `${person} via API token “${e.api_token.name}”` : person;
}

/** The entry in one line: "Changed Hospital name", "Created ticket", "Imported tasks". */
export function historyWhat(e: Pick<HistoryEntry, 'action' | 'entity' | 'field'>): string {
  const what = e.field ? historyFieldLabel(e.field) : e.entity === 'crew' ? 'crew member' : e.entity;
  return `${ACTION_LABELS[e.action]} ${e.field ? what : what.toLowerCase()}`;
}

/** MM/DD/YYYY h:mm AM/PM in the viewer's clock (what the office and crews read everywhere). */
export function formatHistoryTime(at: string, timeZone?: string): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return at;
  return new Intl.DateTimeFormat('en-US', { timeZone, month: '2-digit', day: '2-digit', year: 'numeric', hour: 'numeric', minute: '2-digit', hour12: true })
    .format(d)
    .replace(',', '');
}

const CSV_COLUMNS = ['When', 'Who', 'Ticket', 'What', 'Field', 'Old', 'New'];

/**
 * The job's history as CSV, as the other exports write it (src/shared/export.ts): a BOM, RFC 4180
 * quoting, CRLF, and the formula guard on every cell (a note may start with '=').
 */
export function historyCsv(entries: readonly HistoryEntry[], ticketLabel: (ticketId: number | null) => string, timeZone?: string): string {
  const rows = entries.map((e) => [
    formatHistoryTime(e.at, timeZone),
    historyWho(e),
    ticketLabel(e.ticket_id),
    historyWhat(e),
    e.field ?? '',
    historyValueText(e.old),
    historyValueText(e.new),
  ]);
  return '\uFEFF' + [CSV_COLUMNS, ...rows].map((r) => r.map((c) => csvCell(c)).join(',')).join('\r\n') + '\r\n';
}

export const historyCsvFileName = (jobNumber: string) => `${jobNumber.replace(/[\\/:*?"<>|]/g, '_')}_History.csv`;
