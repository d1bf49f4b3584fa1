import { describe, expect, it } from 'vitest';
import { MSG } from '../../../../shared/messages';
import type { Ticket } from '../../../../shared/tickets.schemas';
import {
  addPoleBody,
  addPoleProblem,
  blankTask,
  canSave,
  choosePole,
  cutGeoText,
  draftErrors,
  editPole,
  emptyDraft,
  emptyPole,
  errorSummary,
  fieldError,
  hasBlankTask,
  isDirty,
  offlineSaveOf,
  notesNewestFirst,
  poleEdited,
  saveErrors,
  toDraft,
  toSaveBody,
  tooManyImages,
  withoutErrorsOf,
} from './ticketDraft';

const job = { id: 7, selected_utility_id: 3, selected_utility_name: 'NGRID', due_date: '2026-12-01' };
const pole = {
  id: 11,
  pole_id: 'P-1',
  pole_name: '10',
  line_name: '12',
  line_id: 'L-12',
  utility_id_owning_pole: 3,
  utility_name: 'NGRID',
  street_address: '1 Main St',
  geo_lat: 42.1,
  geo_lon: -72.5,
  accessibility_id: null,
  accessibility_label: null,
  utility_spec: null,
  primary_voltage: null,
  secondary_voltage: null,
  arc_rating: null,
  sub_curcuit: 'Sub',
  sap_curcuit: 'C-1',
};
const ticket: Ticket = {
  ...emptyDraft(job),
  id: 5,
  version: 3,
  created_date: '2026-11-01T10:00:00Z',
  pole,
  pole_id: 11,
  pole_name: '10',
  line_name: '12',
  tasks: [{ ticket_task_id: 1, task_id: 9, code: 'P40', description: 'Pole', family: '', type: '', uom: 'EA', action: '', date_completed: null, init_qty: 2, additional_qty: 0 }],
  notes: [{ id: 1, author: 'Frank Foreman', author_id: 3, created_date: '2026-11-01T10:00:00Z', note_text: 'old' }],
  permits: [],
  images: [],
} as Ticket;

describe('ticket window draft (docs/product/rules.md §2.1)', () => {
  it('is clean as loaded and dirty after a field, a task quantity, a new note or a pole edit', () => {
    const original = toDraft(ticket);
    expect(isDirty(toDraft(ticket), original)).toBe(false);
    expect(isDirty({ ...toDraft(ticket), description: 'x' }, original)).toBe(true);
    const d = toDraft(ticket);
    d.tasks[0].additional_qty = 1;
    expect(isDirty(d, original)).toBe(true);
    expect(isDirty({ ...toDraft(ticket), notes: [{ key: 'n', id: null, author: 'Me', author_id: null, created_date: '', note_text: 'new' }, ...original.notes] }, original)).toBe(
      true,
    );
    expect(isDirty({ ...toDraft(ticket), pole: { ...pole, arc_rating: '8 cal' } }, original)).toBe(true);
    // '' and null are the same empty value
    expect(isDirty({ ...toDraft(ticket), ehasp: '' }, original)).toBe(false);
  });

  it('allows Save when dirty, or when just created with pole, line and utility; never while a merge is needed', () => {
    const original = toDraft(ticket);
    const clean = toDraft(ticket);
    expect(canSave(clean, original, { justCreated: false, needsMerge: false })).toBe(false);
    expect(canSave(clean, original, { justCreated: true, needsMerge: false })).toBe(true);
    expect(canSave({ ...clean, pole: { ...pole, utility_id_owning_pole: null } }, original, { justCreated: true, needsMerge: false })).toBe(true); // dirty
    const dirty = { ...clean, description: 'x' };
    expect(canSave(dirty, original, { justCreated: false, needsMerge: true })).toBe(false);
    expect(canSave({ ...dirty, pole: { ...pole, id: null } }, original, { justCreated: false, needsMerge: false })).toBe(false);
    expect(canSave({ ...dirty, tasks: [blankTask(), ...dirty.tasks] }, original, { justCreated: false, needsMerge: false })).toBe(false);
  });

  it('sends the version, new rows without ids, and no blank task', () => {
    const d = toDraft(ticket);
    d.tasks = [blankTask(), { ...blankTask(), task_id: 4, init_qty: 1 }, ...d.tasks];
    const body = toSaveBody(d);
    expect(body.version).toBe(3);
    expect(body.pole_id).toBe(11);
    expect(body.tasks).toEqual([
      { ticket_task_id: null, task_id: 4, init_qty: 1, additional_qty: 1 },
      { ticket_task_id: 1, task_id: 9, init_qty: 2, additional_qty: 0 },
    ]);
    expect(body.notes).toEqual([{ id: 1, note_text: 'old' }]);
    expect(toSaveBody(emptyDraft(job))).not.toHaveProperty('version');
  });

  it('allows one blank new task at a time, starting at an actual quantity of 1', () => {
    const t = blankTask();
    expect(t.additional_qty).toBe(1);
    expect(hasBlankTask([t])).toBe(true);
    expect(hasBlankTask([{ ...t, task_id: 3 }])).toBe(false);
  });

  it('lists notes newest first, unsaved ones on top', () => {
    const notes = [
      { id: 1, created_date: '2026-01-01T00:00:00Z' },
      { id: 2, created_date: '2026-03-01T00:00:00Z' },
      { id: null, created_date: null },
    ];
    expect(notesNewestFirst(notes).map((n) => n.id)).toEqual([null, 2, 1]);
  });

  it('limits photos to 10 per ticket and per pick (docs/product/rules.md §2.7)', () => {
    expect(tooManyImages(7, 3)).toBe(false);
    expect(tooManyImages(8, 3)).toBe(true);
    expect(tooManyImages(0, 11)).toBe(true);
  });

  it('cuts typed coordinates to 6 decimals without rounding and keeps partial input', () => {
    expect(cutGeoText('42.12345678')).toBe('42.123456');
    expect(cutGeoText('-72.9999999')).toBe('-72.999999');
    expect(cutGeoText('42.')).toBe('42.');
    expect(cutGeoText('-')).toBe('-');
  });

  it('unselects a chosen pole when its name, line, substation or circuit is typed, not for its other fields', () => {
    const d = toDraft(ticket);
    const empty = emptyPole(3, 'NGRID');
    const renamed = editPole(d, { pole_name: '10A' }, empty);
    expect(renamed.unselected).toBe(true);
    expect(renamed.patch.pole).toMatchObject({ id: null, pole_name: '10A' });
    expect(renamed.patch.pole_id).toBeNull();
    expect(editPole(d, { sap_curcuit: 'C-2' }, empty).unselected).toBe(true);
    const rated = editPole(d, { arc_rating: '8 cal' }, empty);
    expect(rated.unselected).toBe(false);
    expect(rated.patch).toMatchObject({ pole_id: 11, pole: { id: 11, arc_rating: '8 cal' } });
    // The same name again changes nothing; a ticket without a pole starts from the job's empty one.
    expect(editPole(d, { pole_name: '10' }, empty).unselected).toBe(false);
    expect(editPole(emptyDraft(job), { line_name: '4' }, empty)).toEqual({ patch: { pole: { ...empty, line_name: '4' }, pole_id: null }, unselected: false });
  });

  it("points the ticket at a chosen pole, taking the pole's address and GPS only where the ticket has none", () => {
    const other = { ...pole, id: 12, pole_name: '11', street_address: '2 Mill Rd', geo_lat: 41, geo_lon: -71 };
    expect(choosePole({ ...emptyDraft(job), geo_lat: 40 }, other)).toMatchObject({ pole_id: 12, pole_name: '11', line_name: '12', street_address: '2 Mill Rd', geo_lat: 40, geo_lon: -71 });
    const own = { ...toDraft(ticket), street_address: '9 Elm St', geo_lat: 42, geo_lon: -72 };
    expect(choosePole(own, other)).toMatchObject({ pole_id: 12, street_address: '9 Elm St', geo_lat: 42, geo_lon: -72 });
  });

  it("tells an edit of the chosen pole's own fields from choosing another pole", () => {
    const d = toDraft(ticket);
    expect(poleEdited(d, pole)).toBe(false);
    expect(poleEdited({ ...d, pole: { ...pole, arc_rating: '8 cal' } }, pole)).toBe(true);
    expect(poleEdited({ ...d, pole: { ...pole, id: 12, arc_rating: '8 cal' } }, pole)).toBe(false);
    expect(poleEdited({ ...d, pole: { ...pole, id: null, arc_rating: '8 cal' } }, pole)).toBe(false);
    expect(poleEdited(d, null)).toBe(false);
  });

  it('adds a typed pole only with pole, line and utility, and not twice in a job', () => {
    const typed = { ...emptyPole(3), pole_name: ' 20 ', line_name: 'l-9' };
    const tickets = [{ id: 5, pole_name: '20', line_name: 'L-9' }];
    expect(addPoleProblem({ ...typed, utility_id_owning_pole: null }, [], null)).toBe(MSG.addPoleMissing);
    expect(addPoleProblem({ ...typed, line_name: ' ' }, [], null)).toBe(MSG.addPoleMissing);
    expect(addPoleProblem(typed, tickets, null)).toBe(MSG.addPoleDuplicate);
    expect(addPoleProblem(typed, tickets, 5)).toBeNull(); // the ticket's own pole
    expect(addPoleProblem(typed, [], null)).toBeNull();
  });

  it('sends a typed pole with its utility, and the job only from Create Ticket', () => {
    const typed = { ...pole, id: null, accessibility_label: 'Bucket' };
    const body = addPoleBody(typed, '2026-12-01', 7);
    expect(body).toMatchObject({ pole_name: '10', line_name: '12', utility: 3, due_date: '2026-12-01', job_id: 7, sub_curcuit: 'Sub' });
    expect(body).not.toHaveProperty('id');
    expect(body).not.toHaveProperty('utility_name');
    expect(body).not.toHaveProperty('accessibility_label');
    expect(addPoleBody(typed, null, null)).not.toHaveProperty('job_id');
  });

  it("puts a refused save's field errors on the draft's fields, past the blank new task", () => {
    const d = toDraft(ticket);
    d.tasks = [blankTask(), ...d.tasks];
    expect(draftErrors({ 'ticket.geo_lat': 'Latitude must be between -90 and 90', due_date: 'not a date', 'ticket.tasks.0.init_qty': 'negative' }, d)).toEqual({
      geo_lat: 'Latitude must be between -90 and 90',
      due_date: 'not a date',
      'tasks.1.init_qty': 'negative',
    });
    expect(draftErrors({ 'pole.arc_rating': 'too long' }, d)).toEqual({ 'pole.arc_rating': 'too long' });
    expect(draftErrors({ utility: 'required', geo_lon: 'out of range' }, d, 'newPole')).toEqual({ 'pole.utility_id_owning_pole': 'required', 'pole.geo_lon': 'out of range' });
  });

  it("checks a save by the server's own schema, with its messages on the fields", () => {
    const d = toDraft(ticket);
    expect(saveErrors(d)).toEqual({});
    d.tasks = [{ ...d.tasks[0], init_qty: -1 }];
    const errors = saveErrors({ ...d, geo_lat: 100, description: 'x'.repeat(10_001) });
    expect(errors['tasks.0.init_qty']).toBe('The bid quantity cannot be negative');
    expect(errors.geo_lat).toBe('Latitude must be between -90 and 90');
    expect(errors.description).toBeTruthy();
  });

  it("shows a field's own error or its first part's, and drops the errors of what changed", () => {
    const errors = { 'work_orders.1': 'too long', 'pole.geo_lat': 'bad', description: 'long' };
    expect(fieldError(errors, 'work_orders')).toBe('too long');
    expect(fieldError(errors, 'description')).toBe('long');
    expect(fieldError(errors, 'ehasp')).toBeUndefined();
    expect(withoutErrorsOf(errors, ['pole', 'work_orders'])).toEqual({ description: 'long' });
    expect(withoutErrorsOf(errors, ['ehasp'])).toBe(errors);
    expect(errorSummary(errors)).toBe('too long (work_orders.1)');
    expect(errorSummary({})).toBeNull();
  });
});

describe('saving without a connection', () => {
  const loaded = () =>
    toDraft({
      ...ticket,
      tasks: [
        { ticket_task_id: 11, task_id: 1, code: 'A', description: '', family: '', type: '', uom: 'EA', action: '', date_completed: null, init_qty: 2, additional_qty: 0 },
        { ticket_task_id: 12, task_id: 2, code: 'B', description: '', family: '', type: '', uom: 'EA', action: '', date_completed: null, init_qty: 1, additional_qty: 1 },
      ],
    });

  it('carries fields, status, task quantities and new notes, each with what it was', () => {
    const original = loaded();
    const draft = { ...loaded(), street_address: '2 Oak St', status: 'Complete' as const, description: '' };
    draft.tasks = draft.tasks.map((t) => (t.ticket_task_id === 12 ? { ...t, additional_qty: 3 } : t));
    draft.notes = [...draft.notes, { id: null, key: 'n', note_text: ' Leaning pole ', author: '', author_id: null, created_date: '' }];
    const o = offlineSaveOf(draft, original);
    expect(o.needsConnection).toEqual([]);
    expect(o.set).toEqual({ street_address: '2 Oak St', status: 'Complete' });
    expect(o.base).toEqual({ street_address: original.street_address, status: original.status });
    expect(o.taskQty).toEqual({ '12': { mine: 3, base: 1 } });
    expect(o.notes).toEqual(['Leaning pole']);
  });

  it('names what needs a connection: a new ticket, the pole, documents, work orders, permits, tasks added or re-bid', () => {
    expect(offlineSaveOf({ ...loaded(), id: null }, loaded()).needsConnection).toEqual(['a new ticket']);
    const d = { ...loaded(), dig_safe_required: 1 as const, work_orders: ['WO-9'] };
    d.tasks = [...d.tasks.slice(0, 1).map((t) => ({ ...t, init_qty: 5 })), d.tasks[1]];
    expect(offlineSaveOf(d, loaded()).needsConnection).toEqual(['Dig Safe and NRA', 'work orders', 'tasks added, removed or re-bid']);
    const p = { ...loaded(), pole: { ...loaded().pole!, pole_name: 'Other' } };
    expect(offlineSaveOf(p, loaded()).needsConnection).toEqual(['the pole']);
  });
});
