import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../../shared/tickets.schemas';
import { blankTask, canSave, cutGeoText, emptyDraft, hasBlankTask, isDirty, notesNewestFirst, toDraft, toSaveBody, tooManyImages } from './ticketDraft';

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

describe('ticket window draft (SPEC §4)', () => {
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

  it('limits photos to 10 per ticket and per pick (SPEC §5)', () => {
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
});
