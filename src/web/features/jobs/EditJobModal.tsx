import { useCallback, useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { Job } from '../../../shared/jobs.schemas';
import { ERROR_CODE } from '../../../shared/error-codes';
import { MSG } from '../../../shared/messages';
import { ApiError } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import { getJob } from '../../api/job';
import { useSaveJob } from './api/saveJob';
import { confirmDiscard } from '../../components/confirm';
import { JobFormFields } from './JobFormFields';
import { isJobFormDirty, jobFieldsOf, jobFormErrors, jobFormFrom, type JobForm } from './jobForm';

/**
 * Edit Job (SPEC §2, §4): Job read-only, Job Type, Due Date*, Utility*, work packet (removing it
 * clears its fields and makes the form dirty), Foreman, phone, hospital. Save only when changed
 * and valid; a stale version (409) offers to reload the job.
 */
export function EditJobModal({ job, opened, onClose }: { job: Job; opened: boolean; onClose: () => void }) {
  return opened ? <EditJobForm job={job} onClose={onClose} /> : null;
}

function EditJobForm({ job, onClose }: { job: Job; onClose: () => void }) {
  const qc = useQueryClient();
  const [base, setBase] = useState<{ form: JobForm; version: number }>(() => ({ form: jobFormFrom(job), version: job.version }));
  const [form, setForm] = useState<JobForm>(base.form);
  const [touched, setTouched] = useState<Partial<Record<keyof JobForm, boolean>>>({});
  const [packetBusy, setPacketBusy] = useState(false);
  const [error, setError] = useState<{ message: string; stale: boolean } | null>(null);
  const [reloading, setReloading] = useState(false);
  const save = useSaveJob();
  const phone = useMediaQuery('(max-width: 48em)');

  const set = useCallback(<K extends keyof JobForm>(key: K, value: JobForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setTouched((t) => ({ ...t, [key]: true }));
  }, []);

  const errors = jobFormErrors(form);
  const valid = Object.keys(errors).length === 0;
  const dirty = isJobFormDirty(form, base.form);
  const canSave = dirty && valid && !packetBusy && !save.isPending;

  async function requestClose() {
    if (save.isPending) return;
    if (dirty && !(await confirmDiscard()))
      return;
    onClose();
  }

  async function submit() {
    if (!canSave) return;
    setError(null);
    try {
      await save.mutateAsync({ ...jobFieldsOf(form), id: job.id, version: base.version });
      notifications.show({ color: 'green', message: `Job ${job.job_number} was saved.` });
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.code === ERROR_CODE.staleVersion) {
        setError({ message: MSG.staleVersion, stale: true });
      } else {
        setError({ message: err instanceof ApiError ? ((err.body?.error as string | undefined) ?? MSG.saveJobError) : MSG.saveJobError, stale: false });
      }
    }
  }

  /** Loads what the other person saved; the form starts again from it (their changes win). */
  async function reload() {
    setReloading(true);
    try {
      const fresh = await qc.fetchQuery({ queryKey: queryKeys.job(job.id), queryFn: () => getJob(job.id), staleTime: 0 });
      void qc.invalidateQueries({ queryKey: queryKeys.jobs, exact: true });
      const next = { form: jobFormFrom(fresh), version: fresh.version };
      setBase(next);
      setForm(next.form);
      setTouched({});
      setError(null);
    } catch (err) {
      setError({ message: err instanceof Error ? err.message : MSG.generic, stale: true });
    } finally {
      setReloading(false);
    }
  }

  return (
    <Modal opened onClose={() => void requestClose()} title="Edit Job" size="xl" centered fullScreen={phone} closeOnClickOutside={false} closeButtonProps={{ 'aria-label': 'Close Edit Job' }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          <JobFormFields
            form={form}
            set={set}
            errors={errors}
            touched={{ ...touched, due_date: true, selected_utility_id: true, packet: true }}
            onBusyChange={setPacketBusy}
            jobNumberField={<TextInput label="Job" value={form.job_number} readOnly variant="filled" description="The job number cannot be changed." />}
          />
          {error && (
            <Alert color={error.stale ? 'yellow' : 'red'} role="alert" title={error.stale ? 'This job was changed by someone else' : MSG.saveJobError}>
              <Stack gap="xs" align="flex-start">
                {(error.stale || error.message !== MSG.saveJobError) && <Text size="sm">{error.message}</Text>}
                {error.stale && (
                  <Button size="xs" variant="light" loading={reloading} onClick={() => void reload()}>
                    Reload job
                  </Button>
                )}
              </Stack>
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => void requestClose()} disabled={save.isPending}>
              Close
            </Button>
            <Button type="submit" disabled={!canSave} loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
