import { useState } from 'react';
import { Alert, Badge, Button, Group, Modal, NumberInput, Paper, Progress, Stack, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import type { Job } from '../../../shared/jobs.schemas';
import type { UnitOption } from '../../../shared/poles.schemas';
import { clampAdditionalQty, MAX_TASK_QTY, NEW_TASK_ADDITIONAL_QTY } from '../../../shared/tasks';
import { taskSaveSchema } from '../../../shared/tickets.schemas';
import { queryKeys } from '../../api/queryKeys';
import { saveTicket } from './api/saveTicket';
import { getTicket } from '../../api/ticket';
import { TaskTotal } from './TaskTotal';
import { UnitPicker } from './UnitPicker';

const num = (v: string | number) => (typeof v === 'number' ? v : Number(v) || 0);

/** The task to add: a unit of the library, its bid quantity and the change to it. */
interface NewTask {
  unit: UnitOption | null;
  init_qty: number;
  additional_qty: number;
}

/** The rules of a task in a ticket save (src/shared/tickets.schemas taskSaveSchema); the unit is its task_id. */
const taskRules = schemaResolver(taskSaveSchema, { sync: true });
const newTaskRules = ({ unit, init_qty, additional_qty }: NewTask) => {
  const { task_id, ...errors } = taskRules({ task_id: unit?.id, init_qty, additional_qty });
  return task_id ? { ...errors, unit: task_id } : errors;
};

/**
 * 'Create Task' on the job page (docs/product/screens.md §5): one unit of the library added to every ticked ticket.
 * Each ticket is read fresh and saved with its own version, so nobody's edits are overwritten;
 * tickets that fail are named and the rest keep their new task.
 */
export function CreateTaskModal({ job, ticketIds, onClose, onDone }: { job: Job; ticketIds: number[]; onClose: () => void; onDone: () => void }) {
  const qc = useQueryClient();
  const form = useForm<NewTask>({ initialValues: { unit: null, init_qty: 1, additional_qty: NEW_TASK_ADDITIONAL_QTY }, validate: newTaskRules });
  const { unit, init_qty: bid, additional_qty: actual } = form.values;
  const setUnit = (u: UnitOption | null) => form.setFieldValue('unit', u);
  const [progress, setProgress] = useState<number | null>(null);
  const [failures, setFailures] = useState<string[]>([]);

  const names = new Map(job.tickets.map((t) => [t.id, `${t.pole_name ?? '?'} / ${t.line_name ?? '?'}`]));

  const run = async ({ unit, init_qty: bid, additional_qty: actual }: NewTask) => {
    if (!unit) return;
    setFailures([]);
    const failed: string[] = [];
    for (const [i, id] of ticketIds.entries()) {
      setProgress(i);
      try {
        const t = await getTicket(id);
        await saveTicket({
          id: t.id,
          version: t.version,
          job_id: t.job_id,
          tasks: [
            { task_id: unit.id, init_qty: bid, additional_qty: clampAdditionalQty(bid, actual) },
            ...t.tasks.map((x) => ({ ticket_task_id: x.ticket_task_id, task_id: x.task_id, init_qty: x.init_qty, additional_qty: x.additional_qty })),
          ],
        });
        qc.removeQueries({ queryKey: queryKeys.ticket(id) });
      } catch (err) {
        failed.push(`Pole ${names.get(id) ?? id}: ${(err as Error).message}`);
      }
    }
    setProgress(null);
    void qc.invalidateQueries({ queryKey: queryKeys.job(job.id) });
    const added = ticketIds.length - failed.length;
    if (failed.length) setFailures(failed);
    if (added > 0) notifications.show({ color: 'green', message: `Task ${unit.code} added to ${added} ticket${added === 1 ? '' : 's'}.` });
    if (!failed.length) onDone();
  };

  const busy = progress !== null;
  return (
    <Modal opened onClose={busy ? () => undefined : onClose} title="Create Task" size="lg">
      <Stack gap="sm">
        <Text size="sm">
          Add one unit of work to {ticketIds.length} selected ticket{ticketIds.length === 1 ? '' : 's'}.
        </Text>
        {unit ? (
          <Paper withBorder p="sm">
            <Group justify="space-between">
              <div>
                <Group gap={6}>
                  <Text fw={600}>{unit.code}</Text>
                  {unit.uom && (
                    <Badge size="xs" variant="outline" color="gray">
                      {unit.uom}
                    </Badge>
                  )}
                </Group>
                <Text size="sm">{unit.description}</Text>
              </div>
              <Button variant="subtle" size="xs" onClick={() => setUnit(null)} disabled={busy}>
                Change
              </Button>
            </Group>
          </Paper>
        ) : (
          <UnitPicker utilityId={job.selected_utility_id} onPick={setUnit} autoFocus />
        )}
        <Group grow align="flex-end">
          <NumberInput label="Bid qty" value={bid} min={0} max={MAX_TASK_QTY} decimalScale={3} onChange={(v) => {
            const b = Math.max(0, num(v));
            form.setValues((f) => ({ init_qty: b, additional_qty: clampAdditionalQty(b, f.additional_qty ?? actual) }));
          }} />
          <NumberInput
            label="Change to bid (+/-)"
            value={actual}
            min={-bid}
            max={MAX_TASK_QTY}
            decimalScale={3}
            onChange={(v) => form.setFieldValue('additional_qty', clampAdditionalQty(bid, num(v)))}
          />
          <TaskTotal init={bid} change={actual} uom={unit?.uom} />
        </Group>
        {busy && <Progress value={((progress ?? 0) / ticketIds.length) * 100} aria-label="Adding the task" />}
        {failures.length > 0 && (
          <Alert color="red" role="alert" title="Some tickets did not get the task">
            {failures.map((f) => (
              <Text key={f} size="sm">
                {f}
              </Text>
            ))}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Close
          </Button>
          <Button onClick={() => form.onSubmit((task) => void run(task))()} disabled={!form.isValid() || ticketIds.length === 0} loading={busy}>
            Add to {ticketIds.length} ticket{ticketIds.length === 1 ? '' : 's'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
