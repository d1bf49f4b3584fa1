import { schemaResolver, type FormErrors } from '@mantine/form';
import { JOB_TYPE } from '../../../shared/constants';
import { defaultDueDate } from '../../../shared/dates';
import { jobFieldsSchema, type Job, type JobFieldsInput, type JobListItem } from '../../../shared/jobs.schemas';
import type { StoredFile } from '../../components/upload/UploadField';

/** What the Job form (JobFormModal: Create Job and Edit Job) edits (docs/product/entities.md §1 Job and New job draft). */
export interface JobForm {
  job_number: string;
  job_type: number;
  /** 'YYYY-MM-DD' or null. */
  due_date: string | null;
  selected_utility_id: number | null;
  foreman_id: number | null;
  packet: StoredFile | null;
  work_contact_phone: string;
  hospital_name: string;
  hospital_address: string;
  ehasp_override: string;
  arc_rating_override: string;
  primary_voltage_override: string;
  secondary_voltage_override: string;
}

/** docs/product/rules.md §1.2: a blank draft whose due date is one month from today. */
export function emptyJobForm(today = new Date()): JobForm {
  return {
    job_number: '',
    job_type: JOB_TYPE.NORMAL,
    due_date: defaultDueDate(today),
    selected_utility_id: null,
    foreman_id: null,
    packet: null,
    work_contact_phone: '',
    hospital_name: '',
    hospital_address: '',
    ehasp_override: '',
    arc_rating_override: '',
    primary_voltage_override: '',
    secondary_voltage_override: '',
  };
}

export function jobFormFrom(job: Job | JobListItem): JobForm {
  return {
    job_number: job.job_number,
    job_type: job.job_type,
    due_date: job.due_date,
    selected_utility_id: job.selected_utility_id,
    foreman_id: job.foreman_id,
    packet: job.work_packet_url
      ? { url: job.work_packet_url, name: job.work_packet_name ?? 'Work packet', size: job.work_packet_size, type: job.work_packet_type }
      : null,
    work_contact_phone: job.work_contact_phone ?? '',
    hospital_name: job.hospital_name ?? '',
    hospital_address: job.hospital_address ?? '',
    ehasp_override: job.ehasp_override ?? '',
    arc_rating_override: job.arc_rating_override ?? '',
    primary_voltage_override: job.primary_voltage_override ?? '',
    secondary_voltage_override: job.secondary_voltage_override ?? '',
  };
}

const blankToNull = (s: string) => (s.trim() === '' ? null : s.trim());

/** The `job` fields of PUT /jobs/ (src/shared/jobs.schemas.ts jobFieldsSchema). */
export function jobFieldsOf(form: JobForm): JobFieldsInput {
  return {
    job_number: form.job_number.trim(),
    job_type: form.job_type === JOB_TYPE.ESTIMATION ? JOB_TYPE.ESTIMATION : JOB_TYPE.NORMAL,
    due_date: form.due_date ?? '',
    selected_utility_id: form.selected_utility_id ?? -1,
    foreman_id: form.foreman_id,
    work_packet_url: form.packet?.url ?? '',
    work_packet_name: form.packet?.name ?? null,
    work_packet_size: form.packet?.size ?? null,
    work_packet_type: form.packet?.type ?? null,
    work_contact_phone: blankToNull(form.work_contact_phone),
    hospital_name: blankToNull(form.hospital_name),
    hospital_address: blankToNull(form.hospital_address),
    ehasp_override: blankToNull(form.ehasp_override),
    arc_rating_override: blankToNull(form.arc_rating_override),
    primary_voltage_override: blankToNull(form.primary_voltage_override),
    secondary_voltage_override: blankToNull(form.secondary_voltage_override),
  };
}

/** The form field that shows a message about a `job` field: the packet stands for its four fields. */
export const jobFormField = (field: string) => (field.startsWith('work_packet_') ? 'packet' : field);

const checkJobFields = schemaResolver(jobFieldsSchema, { sync: true });

/**
 * The `validate` of the Job form (docs/product/rules.md §1.2 Job save rules, checked by the same schema the server
 * uses): a message per form field that is wrong, empty when the job can be saved.
 */
export function jobFormErrors(form: JobForm): FormErrors {
  const out: FormErrors = {};
  for (const [field, message] of Object.entries(checkJobFields(jobFieldsOf(form)))) out[jobFormField(field)] ??= message;
  return out;
}
