import { useCallback, useRef, useState } from 'react';
import { Accordion, Alert, Button, Group, Loader, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { disabledTargets, type JobOverrides, type TicketsFile } from '../../../shared/excel';
import { LIMITS } from '../../../shared/constants';
import { ERROR_CODE } from '../../../shared/error-codes';
import { MSG } from '../../../shared/messages';
import { ApiError } from '../../api/client';
import { jobNumberExists } from './api/jobExists';
import { useSaveJob } from './api/saveJob';
import { confirmDiscard } from '../../components/confirm';
import { ExcelTicketsField, type ExcelState } from './ExcelTicketsField';
import { JobFormFields } from './JobFormFields';
import { emptyJobForm, isJobFormDirty, jobFieldsOf, jobFormErrors, type JobForm } from './jobForm';

type NumberCheck = { number: string; state: 'checking' | 'exists' | 'free' | 'failed' };

/**
 * Create Job (SPEC §2, §4, §5): a blank draft due one month from today; the job number is checked
 * when it loses focus; Save is enabled when the number is free, a utility is chosen, the packet
 * is uploaded (and a workbook, if any, is mapped). Saving sends PUT /jobs/ {job: {..., ticketsFile}},
 * closes the modal and reloads the list; closing with changes asks the unsaved-changes question.
 */
export function CreateJobModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  // Mounted fresh each time it opens, so the draft (and its due date) is always new.
  return opened ? <CreateJobForm onClose={onClose} /> : null;
}

function CreateJobForm({ onClose }: { onClose: () => void }) {
  const [initial] = useState(() => emptyJobForm());
  const [form, setForm] = useState<JobForm>(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof JobForm, boolean>>>({});
  const [check, setCheck] = useState<NumberCheck | null>(null);
  const [ticketsFile, setTicketsFile] = useState<TicketsFile | null>(null);
  const [excelState, setExcelState] = useState<ExcelState>('none');
  const [packetBusy, setPacketBusy] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const checkSeq = useRef(0);
  const save = useSaveJob();
  const phone = useMediaQuery('(max-width: 48em)');

  const set = useCallback(<K extends keyof JobForm>(key: K, value: JobForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setTouched((t) => ({ ...t, [key]: true }));
    setSaveError(null);
  }, []);

  const number = form.job_number.trim();
  const numberState = check && check.number === number ? check.state : null;

  async function checkNumber(value: string): Promise<NumberCheck['state'] | null> {
    if (!value) return null;
    const seq = ++checkSeq.current;
    setCheck({ number: value, state: 'checking' });
    let state: NumberCheck['state'];
    try {
      state = (await jobNumberExists(value)) ? 'exists' : 'free';
    } catch {
      state = 'failed';
    }
    if (seq === checkSeq.current) setCheck({ number: value, state });
    return state;
  }

  const errors = jobFormErrors(form);
  const overrides: JobOverrides = {
    ehasp_override: form.ehasp_override,
    arc_rating_override: form.arc_rating_override,
    primary_voltage_override: form.primary_voltage_override,
    secondary_voltage_override: form.secondary_voltage_override,
  };

  // SPEC §5 Job creation: number present and not taken, utility chosen, packet present; plus
  // the general Job save rules (due date) and nothing still uploading or left unmapped.
  const blockers: string[] = [];
  if (!number) blockers.push('a job number');
  else if (numberState === 'exists') blockers.push('a job number that is not taken');
  if (errors.due_date) blockers.push('a due date');
  if (!form.selected_utility_id) blockers.push('a utility');
  if (!form.packet?.name) blockers.push('the work packet');
  if (excelState === 'unmapped') blockers.push('the Excel column mapping (or remove the workbook)');
  const busy = packetBusy || excelState === 'busy' || numberState === 'checking';
  const canSave = blockers.length === 0 && !busy && !save.isPending;

  const dirty = isJobFormDirty(form, initial) || excelState !== 'none' || ticketsFile !== null;

  async function requestClose() {
    if (save.isPending) return;
    if (dirty && !(await confirmDiscard()))
      return;
    onClose();
  }

  async function submit() {
    if (!canSave) return;
    setSaveError(null);
    // A number typed and saved without leaving the field has not been checked yet.
    if (numberState !== 'free' && (await checkNumber(number)) === 'exists') return;
    try {
      // An override set after mapping still wins over its column.
      const file = ticketsFile && {
        ...ticketsFile,
        ticketsMappings: { ...ticketsFile.ticketsMappings, ...Object.fromEntries(disabledTargets(overrides).map((t) => [t, null])) },
      };
      const reply = await save.mutateAsync({ ...jobFieldsOf(form), ticketsFile: file });
      const n = reply.imported?.tickets ?? reply.job.ticket_count;
      notifications.show({ color: 'green', message: `Job ${reply.job.job_number} was created${ticketsFile ? ` with ${n} ticket${n === 1 ? '' : 's'}` : ''}.` });
      onClose();
    } catch (err) {
      const message = err instanceof ApiError ? ((err.body?.error as string | undefined) ?? MSG.saveJobError) : MSG.saveJobError;
      if (err instanceof ApiError && err.code === ERROR_CODE.jobNumberTaken) setCheck({ number, state: 'exists' });
      setSaveError(message);
    }
  }

  const jobNumberField = (
    <TextInput
      label="Job"
      required
      placeholder="Job number"
      data-autofocus
      value={form.job_number}
      maxLength={100}
      onChange={(e) => {
        set('job_number', e.currentTarget.value);
        checkSeq.current++;
        setCheck(null);
      }}
      onBlur={() => void checkNumber(number)}
      rightSection={numberState === 'checking' ? <Loader size="xs" aria-label="Checking the job number" /> : null}
      error={
        numberState === 'exists'
          ? MSG.jobNumberExists
          : numberState === 'failed'
            ? 'The job number could not be checked. It will be checked again when you save.'
            : touched.job_number && !number
              ? MSG.jobNumberRequired
              : undefined
      }
    />
  );

  return (
    <Modal
      opened
      onClose={() => void requestClose()}
      title="Create Job"
      size="xl"
      centered
      fullScreen={phone}
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': 'Close Create Job' }}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          <JobFormFields form={form} set={set} errors={errors} touched={touched} onBusyChange={setPacketBusy} jobNumberField={jobNumberField} />
          <ExcelTicketsField value={ticketsFile} onChange={setTicketsFile} overrides={overrides} onStateChange={setExcelState} />
          <Accordion variant="contained" chevronPosition="right">
            <Accordion.Item value="overrides">
              <Accordion.Control>Overrides (EHASP, arc rating, voltages)</Accordion.Control>
              <Accordion.Panel>
                <Text size="xs" c="dimmed" mb="xs">
                  A value here applies to every ticket of the job and replaces the matching Excel column.
                </Text>
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  <TextInput label="EHASP Override" value={form.ehasp_override} maxLength={LIMITS.shortTextMax} onChange={(e) => set('ehasp_override', e.currentTarget.value)} />
                  <TextInput label="Arc Rating Override" value={form.arc_rating_override} maxLength={LIMITS.shortTextMax} onChange={(e) => set('arc_rating_override', e.currentTarget.value)} />
                  <TextInput
                    label="Primary Voltage Override"
                    value={form.primary_voltage_override}
                    maxLength={LIMITS.shortTextMax}
                    onChange={(e) => set('primary_voltage_override', e.currentTarget.value)}
                  />
                  <TextInput
                    label="Secondary Voltage Override"
                    value={form.secondary_voltage_override}
                    maxLength={LIMITS.shortTextMax}
                    onChange={(e) => set('secondary_voltage_override', e.currentTarget.value)}
                  />
                </SimpleGrid>
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>
          {saveError && (
            <Alert color="red" role="alert" title={MSG.saveJobError}>
              {saveError !== MSG.saveJobError ? saveError : null}
            </Alert>
          )}
          <Group justify="space-between" align="center" wrap="wrap" gap="xs">
            <Text size="xs" c="dimmed" style={{ flex: '1 1 200px' }}>
              {blockers.length > 0 ? `To save, add ${blockers.join(', ')}.` : busy ? 'Waiting for the upload to finish…' : ''}
            </Text>
            <Group gap="sm">
              <Button variant="default" onClick={() => void requestClose()} disabled={save.isPending}>
                Close
              </Button>
              <Button type="submit" disabled={!canSave} loading={save.isPending}>
                Save
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
