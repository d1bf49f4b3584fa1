import type { JobListItem } from '../../../shared/jobs.schemas';
import type { Ticket } from '../../../shared/tickets.schemas';

/**
 * What "Before you climb" says about one safety value: the job's override where the office set
 * one (docs/product/screens.md: it overrides the workbook's column for the whole job), else the pole's or the
 * ticket's own value. When both are set and differ — the override was changed after the import,
 * or the pole record says otherwise — both are shown: a crew must never be told one voltage
 * while the office's records hold another (decision 039).
 */
export interface SafetyValue {
  value: string | null;
  /** The pole's or ticket's own value when it differs from the job's override. */
  recordSays: string | null;
}

const clean = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);

export function safetyValue(override: string | null | undefined, own: string | null | undefined): SafetyValue {
  const o = clean(override);
  const p = clean(own);
  if (!o) return { value: p, recordSays: null };
  return { value: o, recordSays: p && p.toLowerCase() !== o.toLowerCase() ? p : null };
}

/** One document of the ticket or job: what it is, its file name and address. */
export interface ClimbDocument {
  label: string;
  name: string;
  url: string;
}

/** Every document a crew may need at the pole: the work packet, dig-safe, NRA/DNR and permits. */
export function climbDocuments(ticket: Ticket, header: JobListItem | undefined): ClimbDocument[] {
  const docs: ClimbDocument[] = [];
  if (header?.work_packet_url) docs.push({ label: 'Work packet', name: header.work_packet_name || 'Work packet PDF', url: header.work_packet_url });
  if (ticket.dig_safe_url) docs.push({ label: 'Dig Safe', name: ticket.dig_safe_name || 'Dig Safe document', url: ticket.dig_safe_url });
  if (ticket.nra_url) docs.push({ label: 'NRA/DNR', name: ticket.nra_name || 'NRA/DNR document', url: ticket.nra_url });
  for (const p of ticket.permits) {
    if (p.permit_url) docs.push({ label: p.permit_type_title ? `Permit: ${p.permit_type_title}` : 'Permit', name: p.permit_name || p.filename || 'Permit document', url: p.permit_url });
  }
  return docs;
}

/** Dig Safe / NRA status in field words (docs/product/screens.md's grey / red / green circles). */
export function docStatus(required: number, url: string | null): string {
  if (url) return 'Required · document on file';
  return required ? 'Required · no document yet: ask the office' : 'Not required';
}
