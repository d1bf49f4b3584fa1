import { describe, expect, it } from 'vitest';
import type { JobListItem } from '../../../shared/jobs.schemas';
import type { Ticket } from '../../../shared/tickets.schemas';
import { climbDocuments, docStatus, safetyValue } from './climbFacts';

describe('Before you climb (docs/product/field-mode.md §2)', () => {
  it("uses the job's override, and names the pole record when it says otherwise", () => {
    expect(safetyValue('8 cal/cm²', '4 cal/cm²')).toEqual({ value: '8 cal/cm²', recordSays: '4 cal/cm²' });
    expect(safetyValue('13.2 kV', '13.2 KV')).toEqual({ value: '13.2 kV', recordSays: null });
    expect(safetyValue(null, ' 240/120 V ')).toEqual({ value: '240/120 V', recordSays: null });
    expect(safetyValue('  ', null)).toEqual({ value: null, recordSays: null });
  });

  it('lists the packet, dig-safe, NRA and permit documents that exist, by what they are', () => {
    const ticket = {
      dig_safe_url: '/files/1/dig_file/a/dig.pdf',
      dig_safe_name: 'dig.pdf',
      nra_url: null,
      nra_name: null,
      permits: [
        { id: 1, permit_type: 1, permit_type_title: 'State DOT', permit_url: '/files/1/permit/b/dot.pdf', permit_name: 'dot.pdf', permit_file_type: 'application/pdf', filename: 'dot.pdf' },
        { id: 2, permit_type: null, permit_type_title: null, permit_url: null, permit_name: null, permit_file_type: null, filename: null },
      ],
    } as unknown as Ticket;
    const header = { work_packet_url: '/files/1/work_packet/c/packet.pdf', work_packet_name: 'packet.pdf' } as JobListItem;
    expect(climbDocuments(ticket, header).map((d) => [d.label, d.name])).toEqual([
      ['Work packet', 'packet.pdf'],
      ['Dig Safe', 'dig.pdf'],
      ['Permit: State DOT', 'dot.pdf'],
    ]);
    // Without the job's header (never opened with signal) the ticket's own documents still show.
    expect(climbDocuments(ticket, undefined)).toHaveLength(2);
  });

  it('says dig-safe and NRA status in field words', () => {
    expect(docStatus(0, null)).toBe('Not required');
    expect(docStatus(1, null)).toMatch(/^Required · no document yet/);
    expect(docStatus(1, '/files/x.pdf')).toBe('Required · document on file');
  });
});
