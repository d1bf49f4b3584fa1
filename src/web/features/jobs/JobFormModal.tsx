import { useState } from 'react';
import { Accordion, Alert, Button, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { Spinner } from '../../components/Spinner';
import { disabledTargets, type JobOverrides, type TicketsFile } from '../../../shared/excel';
import { LIMITS } from '../../../shared/constants';
import { ERROR_CODE } from '../../../shared/error-codes';
import type { Job } from '../../../shared/jobs.schemas';
import { MSG } from '../../../shared/messages';
import { ApiError } from '../../api/client';
import { jobQuery } from '../../api/job';
import { queryKeys } from '../../api/queryKeys';
import { CloseSaveButtons } from '../../components/CloseSaveButtons';
import { closeUnlessKept, serverFieldErrors } from '../../components/form';
import { useSaveJob } from './api/saveJob';
import { ExcelTicketsField, type ExcelState } from './ExcelTicketsField';
import { JobFormFields } from './JobFormFields';
import { emptyJobForm, jobFieldsOf, jobFormErrors, jobFormField, jobFormFrom, type JobForm } from './jobForm';
import { useJobNumberCheck } from './useJobNumberCheck';

/**
 * Create Job and Edit Job (docs/product/screens.md §4, rules.md §1.2, rules.md): one form of the job's fields, validated by the
 * shared Job save schema, with server `fields` errors shown on their fields.
 * - Without `job` it creates: a blank draft due one month from today; the job number is checked
 *   when it loses focus; Save is enabled when the number is free, a utility is chosen, the packet
 *   is uploaded (and a workbook, if any, is mapped). Saving sends PUT /jobs/ {job: {..., ticketsFile}}.
 * - With `job` it edits: Job read-only; Save only when changed and valid; a stale version (409)
 *   offers to reload the job.
 * Closing with changes asks the unsaved-changes question.
 */
export function JobFormModal({ job = null, opened, onClose }: { job?: Job | null; opened: boolean; onClose: () => void }) {
  // Mounted fresh each time it opens, so a new draft (and its due date) is always new.
  return opened ? <JobFormDialog job={job} onClose={onClose} /> : null;
}

type SaveError = { message: string; stale: boolean };

function JobFormDialog({ job, onClose }: { job: Job | null; onClose: () => void }) {
  const creating = job == null;
  const title = creating ? 'Create Job' : 'Edit Job';
  const qc = useQueryClient();
  const [initial] = useState(() => (job ? jobFormFrom(job) : emptyJobForm()));
  const [version, setVersion] = useState(job?.version);
  const [error, setError] = useState<SaveError | null>(null);
  const form = useForm<JobForm>({
    initialValues: initial,
    // An edited job shows at once what it lacks (an imported job may have no packet).
    initialErrors: creating ? {} : jobFormErrors(initial),
    validate: jobFormErrors,
    validateInputOnChange: true,
    // A change answers a refused create; an edit keeps its stale-version offer until reloaded.
    onValuesChange: () => {
      if (creating) setError(null);
    },
  });
  const numberCheck = useJobNumberCheck();
  const [ticketsFile, setTicketsFile] = useState<TicketsFile | null>(null);
  const [excelState, setExcelState] = useState<ExcelState>('none');
  const [packetBusy, setPacketBusy] = useState(false);
  const [reloading, setReloading] = useState(false);
  const save = useSaveJob();
  const phone = useMediaQuery('(max-width: 48em)');

  const { values } = form;
  const number = values.job_number.trim();
  const numberState = creating ? numberCheck.stateOf(number) : null;
  const overrides: JobOverrides = {
    ehasp_override: values.ehasp_override,
    arc_rating_override: values.arc_rating_override,
    primary_voltage_override: values.primary_voltage_override,
    secondary_voltage_override: values.secondary_voltage_override,
  };

  // docs/product/rules.md §1.2 Job creation: number present and not taken, utility chosen, packet present; plus
  // the general Job save rules (due date) and nothing still uploading or left unmapped.
  const blockers: string[] = [];
  if (creating) {
    if (!number) blockers.push('a job number');
    else if (numberState === 'exists') blockers.push('a job number that is not taken');
    if (!form.isValid('due_date')) blockers.push('a due date');
    if (!values.selected_utility_id) blockers.push('a utility');
    if (!values.packet?.name) blockers.push('the work packet');
    if (excelState === 'unmapped') blockers.push('the Excel column mapping (or remove the workbook)');
  }
  const busy = packetBusy || excelState === 'busy' || numberState === 'checking';
  const dirty = form.isDirty() || excelState !== 'none' || ticketsFile !== null;
  const canSave = (creating ? blockers.length === 0 : dirty && form.isValid()) && !busy && !save.isPending;

  function requestClose() {
    if (!save.isPending) void closeUnlessKept(dirty, onClose);
  }

  async function submit() {
    if (!canSave) return;
    setError(null);
    // A number typed and saved without leaving the field has not been checked yet.
    if (creating && numberState !== 'free' && (await numberCheck.run(number)) === 'exists') return;
    try {
      if (creating) {
        // An override set after mapping still wins over its column.
        const file = ticketsFile && {
          ...ticketsFile,
          ticketsMappings: { ...ticketsFile.ticketsMappings, ...Object.fromEntries(disabledTargets(overrides).map((t) => [t, null])) },
        };
        const reply = await save.mutateAsync({ ...jobFieldsOf(values), ticketsFile: file });
        const n = reply.imported?.tickets ?? reply.job.ticket_count;
        notifications.show({ color: 'green', message: `Job ${reply.job.job_number} was created${ticketsFile ? ` with ${n} ticket${n === 1 ? '' : 's'}` : ''}.` });
      } else {
        await save.mutateAsync({ ...jobFieldsOf(values), id: job.id, version });
        notifications.show({ color: 'green', message: `Job ${job.job_number} was saved.` });
      }
      onClose();
    } catch (err) {
      if (!creating && err instanceof ApiError && err.code === ERROR_CODE.staleVersion) {
        setError({ message: MSG.staleVersion, stale: true });
        return;
      }
      if (err instanceof ApiError && err.code === ERROR_CODE.jobNumberTaken) numberCheck.taken(number);
      form.setErrors((e) => ({ ...e, ...serverFieldErrors(err, Object.keys(values), jobFormField) }));
      setError({ message: err instanceof ApiError ? ((err.body?.error as string | undefined) ?? MSG.saveJobError) : MSG.saveJobError, stale: false });
    }
  }

  /** Loads what the other person saved; the form starts again from it (their changes win). */
  async function reload() {
    if (!job) return;
    setReloading(true);
    try {
      const fresh = await qc.fetchQuery({ ...jobQuery(job.id), staleTime: 0 });
      void qc.invalidateQueries({ queryKey: queryKeys.jobLists });
      const next = jobFormFrom(fresh);
      form.setValues(next);
      form.resetDirty(next);
      form.resetTouched();
      form.setErrors(jobFormErrors(next));
      setVersion(fresh.version);
      setError(null);
    } catch (err) {
      setError({ message: err instanceof Error ? err.message : MSG.generic, stale: true });
    } finally {
      setReloading(false);
    }
  }

  const numberInput = form.getInputProps('job_number');
  const jobNumberField = creating ? (
    <TextInput
      label="Job"
      required
      placeholder="Job number"
      data-autofocus
      maxLength={100}
      {...numberInput}
      onChange={(e) => {
        numberInput.onChange(e);
        numberCheck.forget();
      }}
      onBlur={() => void numberCheck.run(number)}
      rightSection={numberState === 'checking' ? <Spinner size="xs" label="Checking the job number" /> : null}
      error={
        numberState === 'exists'
          ? MSG.jobNumberExists
          : numberState === 'failed'
            ? 'The job number could not be checked. It will be checked again when you save.'
            : form.errors.job_number
      }
    />
  ) : (
    <TextInput label="Job" value={values.job_number} readOnly variant="filled" description="The job number cannot be changed." />
  );

  return (
    <Modal
      opened
      onClose={requestClose}
      title={title}
      size="xl"
      centered
      fullScreen={phone}
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': `Close ${title}` }}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          <JobFormFields form={form} onBusyChange={setPacketBusy} jobNumberField={jobNumberField} />
          {creating && (
            <>
              <ExcelTicketsField
                value={ticketsFile}
                onChange={setTicketsFile}
                overrides={overrides}
                utilityId={values.selected_utility_id ? Number(values.selected_utility_id) : null}
                onStateChange={setExcelState}
              />
              <OverridesFields form={form} />
            </>
          )}
          {error && (
            <Alert color={error.stale ? 'yellow' : 'red'} role="alert" title={error.stale ? 'This job was changed by someone else' : MSG.saveJobError}>
              {(error.stale || error.message !== MSG.saveJobError) && (
                <Stack gap="xs" align="flex-start">
                  <Text size="sm">{error.message}</Text>
                  {error.stale && (
                    <Button size="xs" variant="light" loading={reloading} onClick={() => void reload()}>
                      Reload job
                    </Button>
                  )}
                </Stack>
              )}
            </Alert>
          )}
          <Group justify="space-between" align="center" wrap="wrap" gap="xs">
            <Text size="xs" c="dimmed" style={{ flex: '1 1 200px' }}>
              {blockers.length > 0 ? `To save, add ${blockers.join(', ')}.` : creating && busy ? 'Waiting for the upload to finish…' : ''}
            </Text>
            <CloseSaveButtons onClose={requestClose} canSave={canSave} saving={save.isPending} />
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The job-wide overrides of a new job (docs/product/imports.md §3): each replaces its Excel column on every ticket. */
function OverridesFields({ form }: { form: UseFormReturnType<JobForm> }) {
  return (
    <Accordion variant="contained" chevronPosition="right">
      <Accordion.Item value="overrides">
        <Accordion.Control>Overrides (EHASP, arc rating, voltages)</Accordion.Control>
        <Accordion.Panel>
          <Text size="xs" c="dimmed" mb="xs">
            A value here applies to every ticket of the job and replaces the matching Excel column.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="EHASP Override" maxLength={LIMITS.shortTextMax} {...form.getInputProps('ehasp_override')} />
            <TextInput label="Arc Rating Override" maxLength={LIMITS.shortTextMax} {...form.getInputProps('arc_rating_override')} />
            <TextInput label="Primary Voltage Override" maxLength={LIMITS.shortTextMax} {...form.getInputProps('primary_voltage_override')} />
            <TextInput label="Secondary Voltage Override" maxLength={LIMITS.shortTextMax} {...form.getInputProps('secondary_voltage_override')} />
          </SimpleGrid>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
