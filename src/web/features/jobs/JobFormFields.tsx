import type { ReactNode } from 'react';
import { Radio, Select, SimpleGrid, Stack, TextInput, Textarea, Group } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { JOB_TYPE, LIMITS } from '../../../shared/constants';
import { toIsoDate } from '../../../shared/dates';
import type { JobFieldsInput } from '../../../shared/jobs.schemas';
import { fullName } from '../../../shared/names';
import { UploadField } from '../../components/upload/UploadField';
import { useForemen } from './api/foremen';
import { useUtilities } from './api/utilities';
import type { JobForm } from './jobForm';

export type FormErrors = Partial<Record<keyof JobFieldsInput, string>>;

/**
 * The fields Create Job and Edit Job share (SPEC §2): job type, due date (MM/DD/YYYY calendar),
 * utility, work packet, foreman, work contact phone, hospital. Job number and overrides are
 * placed by the modals (editable only when creating).
 */
export function JobFormFields({
  form,
  set,
  errors,
  touched,
  onBusyChange,
  jobNumberField,
}: {
  form: JobForm;
  set: <K extends keyof JobForm>(key: K, value: JobForm[K]) => void;
  /** Messages of the SPEC §5 rules, shown once the field was touched. */
  errors: FormErrors;
  touched: Partial<Record<keyof JobForm, boolean>>;
  onBusyChange: (busy: boolean) => void;
  jobNumberField: ReactNode;
}) {
  const utilities = useUtilities();
  const foremen = useForemen();
  const show = (key: keyof JobForm, err: string | undefined) => (touched[key] ? err : undefined);

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {jobNumberField}
        <Radio.Group
          label="Job Type"
          value={form.job_type === JOB_TYPE.ESTIMATION ? 'estimation' : 'normal'}
          onChange={(v) => set('job_type', v === 'estimation' ? JOB_TYPE.ESTIMATION : JOB_TYPE.NORMAL)}
        >
          <Group gap="md" mt={8}>
            <Radio value="normal" label="Normal" />
            <Radio value="estimation" label="Estimation" />
          </Group>
        </Radio.Group>
        <DatePickerInput
          label="Due Date"
          required
          valueFormat="MM/DD/YYYY"
          placeholder="MM/DD/YYYY"
          leftSection={<IconCalendar size={16} />}
          maxLevel="decade"
          minDate="0001-01-01"
          value={form.due_date}
          onChange={(v) => set('due_date', v ? toIsoDate(v) : null)}
          error={show('due_date', errors.due_date)}
          popoverProps={{ withinPortal: true }}
        />
        <Select
          label="Utility"
          required
          placeholder="Utility is required"
          data={(utilities.data ?? []).map((u) => ({ value: String(u.id), label: u.code }))}
          value={form.selected_utility_id ? String(form.selected_utility_id) : null}
          onChange={(v) => set('selected_utility_id', v ? Number(v) : null)}
          error={show('selected_utility_id', errors.selected_utility_id) ?? (utilities.isError ? 'The utilities could not be loaded.' : undefined)}
          searchable
          nothingFoundMessage="No utility matches"
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label="Foreman"
          placeholder="Select..."
          data={(foremen.data ?? []).map((f) => ({ value: String(f.id), label: fullName(f.first_name, f.last_name) }))}
          value={form.foreman_id ? String(form.foreman_id) : null}
          onChange={(v) => set('foreman_id', v ? Number(v) : null)}
          clearable
          searchable
          nothingFoundMessage="No foreman matches"
          error={foremen.isError ? 'The foremen could not be loaded.' : undefined}
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput
          label="Work Contact Phone"
          type="tel"
          autoComplete="tel"
          value={form.work_contact_phone}
          maxLength={LIMITS.shortTextMax}
          onChange={(e) => set('work_contact_phone', e.currentTarget.value)}
        />
        <TextInput
          label="Hospital Name"
          value={form.hospital_name}
          maxLength={LIMITS.shortTextMax}
          onChange={(e) => set('hospital_name', e.currentTarget.value)}
        />
        <Textarea
          label="Hospital Address"
          autosize
          minRows={1}
          maxRows={3}
          value={form.hospital_address}
          maxLength={1000}
          onChange={(e) => set('hospital_address', e.currentTarget.value)}
        />
      </SimpleGrid>
      <UploadField
        kind="work_packet"
        label="Work Packet PDF"
        required
        value={form.packet}
        onChange={(f) => set('packet', f)}
        onBusyChange={onBusyChange}
        dropText="Drag the packet PDF here or click to choose it"
        error={show('packet', errors.work_packet_url)}
      />
    </Stack>
  );
}
