import { schemaResolver, type FormErrors } from '@mantine/form';
import { LIMITS, TICKET_STATUS } from '../../../../shared/constants';
import type { Job } from '../../../../shared/jobs.schemas';
import { MSG } from '../../../../shared/messages';
import { addPoleMissing, type AddPoleBody } from '../../../../shared/poles.schemas';
import { ticketSaveSchema, type Note, type Permit, type Pole, type Ticket, type TicketSave, type TicketTask } from '../../../../shared/tickets.schemas';
import { QUEUED_FIELDS, type FieldValues } from '../../../offline/outboxLogic';

/**
 * The ticket window's working copy (docs/product/rules.md §2.1 Ticket window). Rows not saved yet have a null id;
 * every list row carries a client `key` for React. Pure functions, unit-tested beside this file.
 */
export type DraftTask = Omit<TicketTask, 'ticket_task_id'> & { ticket_task_id: number | null; key: string };
export type DraftNote = Omit<Note, 'id'> & { id: number | null; key: string };
export type DraftPermit = Omit<Permit, 'id'> & { id: number | null; key: string };
/** A pole being chosen or typed: id null = not an existing pole (new, or its name was edited). */
export type DraftPole = Omit<Pole, 'id'> & { id: number | null };

export interface TicketDraft
  extends Omit<Ticket, 'id' | 'tasks' | 'notes' | 'permits' | 'pole' | 'version' | 'created_date' | 'images'> {
  id: number | null;
  version: number | null;
  created_date: string | null;
  pole: DraftPole | null;
  tasks: DraftTask[];
  notes: DraftNote[];
  permits: DraftPermit[];
}

let seq = 0;
export const newKey = (prefix: string) => `${prefix}-${++seq}`;

export function emptyPole(utilityId: number | null, utilityName: string | null = null): DraftPole {
  return {
    id: null,
    pole_id: null,
    pole_name: '',
    line_id: null,
    line_name: '',
    utility_id_owning_pole: utilityId,
    utility_name: utilityName,
    street_address: null,
    geo_lat: null,
    geo_lon: null,
    accessibility_id: null,
    accessibility_label: null,
    utility_spec: null,
    primary_voltage: null,
    secondary_voltage: null,
    arc_rating: null,
    sub_curcuit: null,
    sap_curcuit: null,
  };
}

/** A new ticket for the job: no pole chosen yet (the Pole tab opens first). */
export function emptyDraft(job: Pick<Job, 'id' | 'selected_utility_id' | 'selected_utility_name' | 'due_date'>): TicketDraft {
  return {
    id: null,
    version: null,
    job_id: job.id,
    pole_id: null,
    pole: emptyPole(job.selected_utility_id, job.selected_utility_name),
    pole_name: null,
    line_name: null,
    line_id: null,
    status: TICKET_STATUS.PENDING,
    due_date: job.due_date ?? null,
    created_date: null,
    actual_completion_date: null,
    completed_by: null,
    completed_by_name: null,
    completed_lat: null,
    completed_lon: null,
    completed_accuracy_m: null,
    assigned_to: null,
    assigned_to_name: null,
    street_address: null,
    geo_lat: null,
    geo_lon: null,
    pole_lat: null,
    description: null,
    dig_safe_required: 0,
    dig_safe_url: null,
    dig_safe_name: null,
    dig_safe_number: null,
    dig_safe_valid_from: null,
    dig_safe_expires_on: null,
    permit_expires_on: null,
    clear_to_dig: null,
    clear_to_dig_reason: null,
    nra_required: 0,
    nra_url: null,
    nra_name: null,
    ehasp: null,
    ambulance_meetup: null,
    billed_at: null,
    invoice_number: null,
    unlocked_at: null,
    unlock_reason: null,
    unlocked_by: null,
    unlocked_by_name: null,
    work_orders: [],
    notes: [],
    tasks: [],
    permits: [],
  };
}

export function toDraft(t: Ticket): TicketDraft {
  // Images live in the server's copy only: they are saved as they are uploaded, not with Save.
  const { images: _images, ...rest } = t;
  return {
    ...rest,
    pole: t.pole ? { ...t.pole } : null,
    tasks: t.tasks.map((task) => ({ ...task, key: `task-${task.ticket_task_id}` })),
    notes: t.notes.map((n) => ({ ...n, key: `note-${n.id}` })),
    permits: t.permits.map((p) => ({ ...p, key: `permit-${p.id}` })),
    work_orders: [...t.work_orders],
  };
}

// Fields compared for dirty tracking: what a person can change in the window.
const TICKET_FIELDS = [
  'pole_id',
  'due_date',
  'assigned_to',
  'street_address',
  'geo_lat',
  'geo_lon',
  'description',
  'dig_safe_required',
  'dig_safe_url',
  'dig_safe_name',
  'dig_safe_number',
  'dig_safe_valid_from',
  'dig_safe_expires_on',
  'nra_required',
  'nra_url',
  'nra_name',
  'ehasp',
  'ambulance_meetup',
  'status',
] as const satisfies readonly (keyof TicketDraft)[];
const POLE_FIELDS = [
  'id',
  'pole_id',
  'pole_name',
  'line_id',
  'line_name',
  'utility_id_owning_pole',
  'street_address',
  'geo_lat',
  'geo_lon',
  'accessibility_id',
  'utility_spec',
  'primary_voltage',
  'secondary_voltage',
  'arc_rating',
  'sub_curcuit',
  'sap_curcuit',
] as const satisfies readonly (keyof DraftPole)[];

const norm = (v: unknown) => (v === '' || v === undefined ? null : v);
/** What of a permit a person can change: a difference makes the draft dirty. */
const permitSig = (p: DraftPermit) => `${p.id}:${p.permit_type}:${p.permit_url}:${p.permit_name}:${norm(p.number)}:${p.valid_from}:${p.expires_on}`;

export function samePole(a: DraftPole | null, b: DraftPole | null): boolean {
  if (!a || !b) return a === b;
  return POLE_FIELDS.every((f) => norm(a[f]) === norm(b[f]));
}

/** docs/product/rules.md §2.2: dirty when the ticket or its pole differs from what was loaded. */
export function isDirty(draft: TicketDraft, original: TicketDraft): boolean {
  if (TICKET_FIELDS.some((f) => norm(draft[f]) !== norm(original[f]))) return true;
  if (!samePole(draft.pole, original.pole)) return true;
  if (draft.work_orders.join('\u0000') !== original.work_orders.join('\u0000')) return true;
  if (draft.notes.some((n) => n.id == null)) return true;
  const taskSig = (t: DraftTask) => `${t.ticket_task_id}:${t.task_id}:${t.init_qty}:${t.additional_qty}`;
  if (draft.tasks.map(taskSig).join('|') !== original.tasks.map(taskSig).join('|')) return true;
  return draft.permits.map(permitSig).join('|') !== original.permits.map(permitSig).join('|');
}

/** A pole has been chosen (an existing pole row): Info and Tasks open only then (docs/product/screens.md). */
export const hasChosenPole = (d: TicketDraft) => d.pole?.id != null;

/**
 * docs/product/rules.md §2.2 Save rule: allowed when dirty, or when just created and the pole has a pole name, a
 * line name and a valid utility; never while a merge is needed or without a chosen pole.
 */
export function canSave(draft: TicketDraft, original: TicketDraft, opts: { justCreated: boolean; needsMerge: boolean }): boolean {
  if (opts.needsMerge || !hasChosenPole(draft)) return false;
  if (draft.tasks.some((t) => t.task_id <= 0)) return false; // a blank new task: choose a unit first
  if (isDirty(draft, original)) return true;
  const p = draft.pole!;
  return opts.justCreated && !addPoleMissing({ pole_name: p.pole_name, line_name: p.line_name, utility: p.utility_id_owning_pole });
}

/** The `{ticket}` body of PUT /tickets/ (src/shared/tickets.schemas.ts ticketSaveSchema). */
export function toSaveBody(d: TicketDraft): TicketSave & { job_id: number } {
  const pole = d.pole;
  return {
    id: d.id,
    ...(d.version != null ? { version: d.version } : {}),
    job_id: d.job_id,
    pole_id: pole?.id ?? null,
    pole: pole
      ? {
          id: pole.id,
          pole_id: pole.pole_id,
          pole_name: pole.pole_name,
          line_id: pole.line_id,
          line_name: pole.line_name,
          utility_id_owning_pole: pole.utility_id_owning_pole,
          street_address: pole.street_address,
          geo_lat: pole.geo_lat,
          geo_lon: pole.geo_lon,
          accessibility_id: pole.accessibility_id,
          utility_spec: pole.utility_spec,
          primary_voltage: pole.primary_voltage,
          secondary_voltage: pole.secondary_voltage,
          arc_rating: pole.arc_rating,
          sub_curcuit: pole.sub_curcuit,
          sap_curcuit: pole.sap_curcuit,
        }
      : null,
    street_address: d.street_address,
    geo_lat: d.geo_lat,
    geo_lon: d.geo_lon,
    description: d.description,
    assigned_to: d.assigned_to,
    due_date: d.due_date,
    dig_safe_required: d.dig_safe_required ? 1 : 0,
    dig_safe_url: d.dig_safe_url,
    dig_safe_name: d.dig_safe_name,
    dig_safe_number: d.dig_safe_number,
    dig_safe_valid_from: d.dig_safe_valid_from,
    dig_safe_expires_on: d.dig_safe_expires_on,
    nra_required: d.nra_required ? 1 : 0,
    nra_url: d.nra_url,
    nra_name: d.nra_name,
    ehasp: d.ehasp,
    ambulance_meetup: d.ambulance_meetup,
    status: d.status,
    work_orders: d.work_orders.map((w) => w.trim()).filter(Boolean),
    notes: d.notes.map((n) => ({ id: n.id, note_text: n.note_text })),
    permits: d.permits.map((p) => ({
      id: p.id,
      permit_type: p.permit_type,
      permit_url: p.permit_url,
      permit_name: p.permit_name,
      permit_file_type: p.permit_file_type,
      filename: p.filename,
      number: p.number,
      valid_from: p.valid_from,
      expires_on: p.expires_on,
    })),
    tasks: d.tasks
      .filter((t) => t.task_id > 0)
      .map((t) => ({ ticket_task_id: t.ticket_task_id, task_id: t.task_id, init_qty: t.init_qty, additional_qty: t.additional_qty })),
  };
}

// ---------------------------------------------------------------------------------------------
// The pole of the draft (Pole tab)

// Typing one of these unselects the pole (docs/product/rules.md §2.2): the ticket would otherwise point at a pole
// whose name no longer matches what the person sees.
const IDENTITY_FIELDS = ['pole_name', 'line_name', 'sub_curcuit', 'sap_curcuit'] as const;

/**
 * An edit of the pole's fields, as a patch of the draft. Editing its name, line, substation or
 * circuit unselects a chosen pole (`unselected`: the needs-merge answer for it no longer holds).
 */
export function editPole(d: TicketDraft, patch: Partial<DraftPole>, empty: DraftPole): { patch: Pick<TicketDraft, 'pole' | 'pole_id'>; unselected: boolean } {
  const pole = { ...(d.pole ?? empty), ...patch };
  const identityChanged = IDENTITY_FIELDS.some((f) => f in patch && (patch[f] ?? null) !== (d.pole?.[f] ?? null));
  const unselected = identityChanged && pole.id != null;
  if (unselected) pole.id = null;
  return { patch: { pole, pole_id: pole.id }, unselected };
}

/** A pole picked from the search (or just added), as a patch: the ticket points at it and, lacking its own, takes its address and GPS. */
export function choosePole(d: TicketDraft, p: Pole): Partial<TicketDraft> {
  return {
    pole: { ...p },
    pole_id: p.id,
    pole_name: p.pole_name,
    line_name: p.line_name,
    line_id: p.line_id,
    street_address: d.street_address ?? p.street_address,
    geo_lat: d.geo_lat ?? p.geo_lat,
    geo_lon: d.geo_lon ?? p.geo_lon,
  };
}

/**
 * The chosen pole's own fields differ from what the server has (`basePole`): they are saved with
 * PUT /poles/ ('Save Pole', or first thing on Save), as the ticket save only re-points the ticket.
 */
export const poleEdited = (d: TicketDraft, basePole: DraftPole | null): boolean =>
  d.pole != null && basePole != null && d.pole.id != null && d.pole.id === basePole.id && !samePole(d.pole, basePole);

/**
 * Why 'Add as a New Pole' cannot go ahead (docs/product/rules.md §1.2), or null: pole, line and utility are needed,
 * and no other ticket of the job may hold that pole and line (compared trimmed, any case).
 */
export function addPoleProblem(p: DraftPole, tickets: readonly { id: number; pole_name: string | null; line_name: string | null }[], ticketId: number | null): string | null {
  if (addPoleMissing({ pole_name: p.pole_name, line_name: p.line_name, utility: p.utility_id_owning_pole })) return MSG.addPoleMissing;
  const key = (a: string | null, b: string | null) => `${(a ?? '').trim().toLowerCase()}\u0000${(b ?? '').trim().toLowerCase()}`;
  const taken = tickets.some((t) => t.id !== ticketId && key(t.pole_name, t.line_name) === key(p.pole_name, p.line_name));
  return taken ? MSG.addPoleDuplicate : null;
}

/** POST /poles/ for the typed pole: with job_id (a new ticket is made with the pole) only from Create Ticket. */
export function addPoleBody(p: DraftPole, dueDate: string | null, newTicketJobId: number | null): AddPoleBody & { utility: number } {
  const { id: _id, utility_id_owning_pole, utility_name: _u, accessibility_label: _a, ...fields } = p;
  return { ...fields, utility: utility_id_owning_pole!, due_date: dueDate, ...(newTicketJobId != null ? { job_id: newTicketJobId } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Field errors of a save, on the draft's own paths (the inputs show them)

/**
 * A refused save's field errors, keyed by paths of the draft. The server names a field by its
 * body: 'ticket.geo_lat' (schema) or 'due_date' (rule) for PUT /tickets/, 'pole.geo_lat' for
 * PUT /poles/ (the draft's path already), 'geo_lat' for POST /poles/ (`newPole`: a field of the
 * draft's pole). The save body leaves out the blank new task, so a task's index is mapped back.
 */
export function draftErrors(fields: FormErrors, d: TicketDraft, body: 'ticket' | 'newPole' = 'ticket'): FormErrors {
  const sent = d.tasks.flatMap((t, i) => (t.task_id > 0 ? [i] : []));
  const out: FormErrors = {};
  for (const [key, message] of Object.entries(fields)) {
    let path = key.replace(/^ticket\./, '');
    if (body === 'newPole') path = `pole.${path === 'utility' ? 'utility_id_owning_pole' : path}`;
    const task = /^tasks\.(\d+)(\..*)?$/.exec(path);
    if (task && sent[Number(task[1])] !== undefined) path = `tasks.${sent[Number(task[1])]}${task[2] ?? ''}`;
    out[path] ??= message;
  }
  return out;
}

const checkSave = schemaResolver(ticketSaveSchema, { sync: true });

/**
 * The draft checked by the server's own rule for a save (shared ticketSaveSchema on
 * toSaveBody), so a save the server would refuse is stopped with the same messages, on the fields.
 */
export const saveErrors = (d: TicketDraft): FormErrors => draftErrors(checkSave(toSaveBody(d)), d);

/** A field's error: its own, or the first of its parts (a work order, a permit's document). */
export function fieldError(errors: FormErrors, path: string): FormErrors[string] {
  if (errors[path] != null) return errors[path];
  const key = Object.keys(errors).find((k) => k.startsWith(`${path}.`));
  return key ? errors[key] : undefined;
}

/** The errors left once these fields (and their parts) changed. */
export function withoutErrorsOf(errors: FormErrors, paths: readonly string[]): FormErrors {
  const cleared = Object.keys(errors).filter((k) => paths.some((p) => k === p || k.startsWith(`${p}.`)));
  if (cleared.length === 0) return errors;
  const out = { ...errors };
  for (const k of cleared) delete out[k];
  return out;
}

/** One line for the window's alert, as the server words a refused field: 'message (field)'. */
export function errorSummary(errors: FormErrors): string | null {
  const first = Object.entries(errors)[0];
  return first ? `${String(first[1])} (${first[0]})` : null;
}

// ---------------------------------------------------------------------------------------------
// Lists

/** A blank new task for the top of the list (docs/product/rules.md §2.6: only one at a time, starting at 1). */
export function blankTask(): DraftTask {
  return {
    key: newKey('task'),
    ticket_task_id: null,
    task_id: 0,
    code: '',
    description: '',
    family: '',
    type: '',
    uom: '',
    action: '',
    date_completed: null,
    init_qty: 0,
    additional_qty: 1,
  };
}

export const hasBlankTask = (tasks: DraftTask[]) => tasks.some((t) => t.ticket_task_id == null && t.task_id <= 0);

/** Notes newest first (docs/product/screens.md: author and time). */
export function notesNewestFirst<T extends { created_date: string | null; id: number | null }>(notes: readonly T[]): T[] {
  return [...notes].sort((a, b) => {
    const ta = a.created_date ? Date.parse(a.created_date) : Infinity;
    const tb = b.created_date ? Date.parse(b.created_date) : Infinity;
    return tb - ta || (b.id ?? Infinity) - (a.id ?? Infinity);
  });
}

/** docs/product/rules.md §2.7 Images: selected plus existing may not exceed 10; a pick is capped at 10. */
export function tooManyImages(existing: number, picked: number): boolean {
  return picked > LIMITS.imagesPerPick || existing + picked > LIMITS.imagesPerTicket;
}

/** Cuts typed coordinate text to 6 decimals (docs/product/rules.md §2.3), keeping what is still being typed ("42.", "-"). */
export function cutGeoText(text: string): string {
  const m = /^(\s*-?\d*)(\.(\d*))?(.*)$/.exec(text);
  if (!m) return text;
  return m[2] === undefined ? text : `${m[1]}.${m[3].slice(0, LIMITS.geoDecimals)}${m[4]}`;
}

// ---------------------------------------------------------------------------------------------
// Saving without a connection (docs/product/field-mode.md §5 outbox)

/** What of a draft can wait in the outbox, and what needs a connection. */
export interface OfflineSave {
  set: FieldValues;
  base: FieldValues;
  taskQty: Record<string, { mine: number; base: number }>;
  notes: string[];
  /** Changes that need the server now (a new ticket, the pole, documents, permits, tasks added or removed). */
  needsConnection: string[];
}

/**
 * A ticket's edits split into what the outbox can carry (its fields, status, task quantities,
 * new notes: replayed with the version, so the office's later edits are never overwritten
 * unseen) and what needs a connection: uploads, a pole choice or a new ticket depend on the
 * server's answer at once.
 */
export function offlineSaveOf(draft: TicketDraft, original: TicketDraft): OfflineSave {
  const out: OfflineSave = { set: {}, base: {}, taskQty: {}, notes: [], needsConnection: [] };
  if (draft.id == null) {
    out.needsConnection.push('a new ticket');
    return out;
  }
  for (const f of QUEUED_FIELDS) {
    if (norm(draft[f]) === norm(original[f])) continue;
    (out.set as Record<string, unknown>)[f] = norm(draft[f]);
    (out.base as Record<string, unknown>)[f] = norm(original[f]);
  }
  const others = TICKET_FIELDS.filter((f) => !(QUEUED_FIELDS as readonly string[]).includes(f) && norm(draft[f]) !== norm(original[f]));
  if (others.some((f) => f === 'pole_id') || !samePole(draft.pole, original.pole)) out.needsConnection.push('the pole');
  if (others.some((f) => f.startsWith('dig_safe') || f.startsWith('nra'))) out.needsConnection.push('Dig Safe and NRA');
  if (draft.work_orders.join('\u0000') !== original.work_orders.join('\u0000')) out.needsConnection.push('work orders');
  if (draft.permits.map(permitSig).join('|') !== original.permits.map(permitSig).join('|')) out.needsConnection.push('permits');
  const before = new Map(original.tasks.map((t) => [t.ticket_task_id, t]));
  const kept = draft.tasks.filter((t) => t.ticket_task_id != null && before.has(t.ticket_task_id));
  if (kept.length !== draft.tasks.length || kept.length !== original.tasks.length || kept.some((t) => t.init_qty !== before.get(t.ticket_task_id)!.init_qty)) {
    out.needsConnection.push('tasks added, removed or re-bid');
  }
  for (const t of kept) {
    const was = before.get(t.ticket_task_id)!.additional_qty;
    if (t.additional_qty !== was) out.taskQty[String(t.ticket_task_id)] = { mine: t.additional_qty, base: was };
  }
  out.notes = draft.notes.filter((n) => n.id == null && n.note_text.trim() !== '').map((n) => n.note_text.trim());
  return out;
}
