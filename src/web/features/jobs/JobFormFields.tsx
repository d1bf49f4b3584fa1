import type { ReactNode } from 'react';
import { Radio, Select, SimpleGrid, Stack, TextInput, Textarea, Group } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import type { UseFormReturnType } from '@mantine/form';
import { IconCalendar } from '@tabler/icons-react';
import { JOB_TYPE, LIMITS } from '../../../shared/constants';
import { toIsoDate } from '../../../shared/dates';
import { fullName } from '../../../shared/names';
import { UploadField } from '../../components/upload/UploadField';
import { useForemen } from '../../api/foremen';
import { useUtilities } from '../../api/utilities';

/**
 * Dropdowns of the job sheet are placed with `position: fixed` (docs/product/screens.md §4.1, a full-width sheet on a phone): an absolute dropdown
 * is first drawn at a provisional place, half off a 390 px phone, which widens the page; a phone
 * then widens its layout viewport, the full-screen sheet grows to 553 px, the dropdown is placed
 * again, the page narrows — and the sheet jumped between the two widths every frame, so a tap on
 * an option missed. A fixed element never widens the page.
 */
const IN_SHEET = { withinPortal: true, floatingStrategy: 'fixed' } as const;
import type { JobForm } from './jobForm';

/**
 * The fields Create Job and Edit Job share (docs/product/screens.md §4): job type, due date (MM/DD/YYYY calendar),
 * utility, work packet, foreman, work contact phone, hospital. Job number and overrides are
 * placed by JobFormModal (editable only when creating). Messages are the form's errors: the
 * docs/product/rules.md rules as a field changes, and the server's `fields` after a refused save.
 */
export function JobFormFields({
  form,
  onBusyChange,
  jobNumberField,
}: {
  form: UseFormReturnType<JobForm>;
  onBusyChange: (busy: boolean) => void;
  jobNumberField: ReactNode;
}) {
  const utilities = useUtilities();
  const foremen = useForemen();
  const { values, errors, setFieldValue } = form;

  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {jobNumberField}
        <Radio.Group
          label="Job Type"
          value={values.job_type === JOB_TYPE.ESTIMATION ? 'estimation' : 'normal'}
          onChange={(v) => setFieldValue('job_type', v === 'estimation' ? JOB_TYPE.ESTIMATION : JOB_TYPE.NORMAL)}
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
          value={values.due_date}
          onChange={(v) => setFieldValue('due_date', v ? toIsoDate(v) : null)}
          error={errors.due_date}
          popoverProps={IN_SHEET}
        />
        <Select
          label="Utility"
          required
          placeholder="Utility is required"
          data={(utilities.data ?? []).map((u) => ({ value: String(u.id), label: u.code }))}
          value={values.selected_utility_id ? String(values.selected_utility_id) : null}
          onChange={(v) => setFieldValue('selected_utility_id', v ? Number(v) : null)}
          error={errors.selected_utility_id ?? (utilities.isError ? 'The utilities could not be loaded.' : undefined)}
          searchable
          nothingFoundMessage="No utility matches"
          comboboxProps={IN_SHEET}
        />
        <Select
          label="Foreman"
          placeholder="Select..."
          data={(foremen.data ?? []).map((f) => ({ value: String(f.id), label: fullName(f.first_name, f.last_name) }))}
          value={values.foreman_id ? String(values.foreman_id) : null}
          onChange={(v) => setFieldValue('foreman_id', v ? Number(v) : null)}
          clearable
          searchable
          nothingFoundMessage="No foreman matches"
          error={errors.foreman_id ?? (foremen.isError ? 'The foremen could not be loaded.' : undefined)}
          comboboxProps={IN_SHEET}
        />
        <TextInput
          label="Work Contact Phone"
          type="tel"
          autoComplete="tel"
          maxLength={LIMITS.shortTextMax}
          {...form.getInputProps('work_contact_phone')}
        />
        <TextInput label="Hospital Name" maxLength={LIMITS.shortTextMax} {...form.getInputProps('hospital_name')} />
        <Textarea
          label="Hospital Address"
          autosize
          minRows={1}
          maxRows={3}
          maxLength={1000}
          {...form.getInputProps('hospital_address')}
        />
      </SimpleGrid>
      <UploadField
        kind="work_packet"
        label="Work Packet PDF"
        required
        value={values.packet}
        onChange={(f) => setFieldValue('packet', f)}
        onBusyChange={onBusyChange}
        dropText="Drag the packet PDF here or click to choose it"
        error={errors.packet}
      />
    </Stack>
  );
}
