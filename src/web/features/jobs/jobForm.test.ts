import { describe, expect, it } from 'vitest';
import { MSG } from '../../../shared/messages';
import { emptyJobForm, jobFieldsOf, jobFormErrors, jobFormField, jobFormFrom } from './jobForm';

const packet = { url: '/files/1/work_packet/abc/packet.pdf', name: 'packet.pdf', size: 601, type: 'application/pdf' };

describe('job form (docs/product/rules.md §1.2 Create/Edit Job, §5 Job save)', () => {
  it('opens blank with Normal job type and a due date one month from today', () => {
    const form = emptyJobForm(new Date(2026, 0, 31));
    expect(form.job_number).toBe('');
    expect(form.job_type).toBe(0);
    expect(form.due_date).toBe('2026-02-28'); // 31 Jan + 1 month, clamped
    expect(form.selected_utility_id).toBeNull();
  });

  it('names every rule a blank draft breaks, with the shared messages, on the field that shows it', () => {
    const errors = jobFormErrors(emptyJobForm());
    expect(errors.job_number).toBe(MSG.jobNumberRequired);
    expect(errors.selected_utility_id).toBe(MSG.jobUtilityRequired);
    expect(errors.packet).toBe(MSG.jobPacketRequired); // the packet field stands for work_packet_url
    expect(Object.keys(errors).sort()).toEqual(['job_number', 'packet', 'selected_utility_id']);
    expect(errors.due_date).toBeUndefined();
    expect(jobFormErrors({ ...emptyJobForm(), due_date: null }).due_date).toBe(MSG.jobDueDateRequired);
  });

  it('is valid with a number, a utility, a due date and a packet; foreman stays optional', () => {
    const form = { ...emptyJobForm(), job_number: ' J-77 ', selected_utility_id: 2, packet };
    expect(jobFormErrors(form)).toEqual({});
    const fields = jobFieldsOf(form);
    expect(fields.job_number).toBe('J-77');
    expect(fields.foreman_id).toBeNull();
    expect(fields.work_packet_url).toBe(packet.url);
    expect(fields.hospital_name).toBeNull(); // blank text is sent as null
  });

  it('opens an existing job as it is, and names the packet when it is removed', () => {
    const job = {
      id: 1, job_number: 'J-1', job_type: 1, status: 'In Estimation' as const, ticket_count: 0, created_name: '', created_by: null,
      foreman_id: 5, foreman_name: 'F F', due_date: '2027-01-02', date_completed: null, selected_utility_id: 3, selected_utility_name: 'NGRID',
      work_packet_url: packet.url, work_packet_name: packet.name, work_packet_size: 601, work_packet_type: 'application/pdf',
      work_contact_phone: null, hospital_name: 'Mercy', hospital_address: null, ehasp_override: null, arc_rating_override: null,
      primary_voltage_override: null, secondary_voltage_override: null, version: 4, created_at: '2026-01-01T00:00:00Z', unevidenced_count: 0,
    };
    const base = jobFormFrom(job);
    expect(base).toMatchObject({ job_type: 1, due_date: '2027-01-02', foreman_id: 5, packet, hospital_name: 'Mercy', work_contact_phone: '' });
    expect(jobFormErrors(base)).toEqual({});
    const removed = { ...base, packet: null };
    expect(jobFormErrors(removed)).toEqual({ packet: MSG.jobPacketRequired });
    expect(jobFieldsOf(removed).work_packet_name).toBeNull();
  });

  it('shows a message about any work_packet_ field on the packet field, others on their own', () => {
    for (const f of ['work_packet_url', 'work_packet_name', 'work_packet_size', 'work_packet_type']) expect(jobFormField(f)).toBe('packet');
    expect(jobFormField('selected_utility_id')).toBe('selected_utility_id');
  });
});
