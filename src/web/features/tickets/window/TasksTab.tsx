import { ActionIcon, Badge, Button, Group, NumberInput, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { clampAdditionalQty, MAX_TASK_QTY } from '../../../../shared/tasks';
import { ReadField } from './ReadField';
import { formatQty, signedQty, TaskTotal } from '../TaskTotal';
import { UnitPicker } from '../UnitPicker';
import type { FormErrors } from '@mantine/form';
import { blankTask, fieldError, hasBlankTask, type DraftTask } from './ticketDraft';

const num = (v: string | number) => (typeof v === 'number' ? v : v.trim() === '' || v === '-' ? 0 : Number(v));
/**
 * docs/product/rules.md §2.6 Tasks: units of the library on the ticket with their bid (init_qty), the change to the
 * bid (additional_qty, clamped so the total never goes below 0) and the total they come to. One blank new task at a time, at the
 * top; its unit (code and description) can be chosen only until the ticket is saved. `errors`:
 * a refused save's messages, by path of the draft ('tasks.2.init_qty').
 */
export function TasksTab({
  tasks,
  errors,
  utilityId,
  canEdit,
  onChange,
}: {
  tasks: DraftTask[];
  errors: FormErrors;
  utilityId: number | null;
  canEdit: boolean;
  onChange: (tasks: DraftTask[]) => void;
}) {
  const set = (key: string, patch: Partial<DraftTask>) => onChange(tasks.map((t) => (t.key === key ? { ...t, ...patch } : t)));
  const blank = hasBlankTask(tasks);

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {tasks.length} task{tasks.length === 1 ? '' : 's'}
        </Text>
        {canEdit && (
          <Tooltip label="Choose a unit for the new task first" disabled={!blank}>
            <Button leftSection={<IconPlus size={16} />} size="sm" disabled={blank} onClick={() => onChange([blankTask(), ...tasks])}>
              Add Task
            </Button>
          </Tooltip>
        )}
      </Group>

      {tasks.length === 0 && (
        <Paper withBorder p="md">
          <Text c="dimmed" ta="center" size="sm">
            No tasks yet.{canEdit ? ' Add a unit of work with Add Task.' : ''}
          </Text>
        </Paper>
      )}

      {tasks.map((t, i) => {
        const isNew = t.ticket_task_id == null;
        return (
          <Paper key={t.key} withBorder p="sm" data-testid="task-row" bg={isNew ? 'var(--mantine-color-blue-light)' : undefined}>
            <Stack gap="xs">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                {t.task_id > 0 ? (
                  <div style={{ minWidth: 0 }}>
                    <Group gap={6}>
                      <Text fw={600}>{t.code}</Text>
                      {isNew && (
                        <Badge size="xs" variant="light">
                          new
                        </Badge>
                      )}
                      {t.uom && (
                        <Badge size="xs" variant="outline" color="gray">
                          {t.uom}
                        </Badge>
                      )}
                    </Group>
                    <Text size="sm">{t.description}</Text>
                    {(t.family || t.action) && (
                      <Text size="xs" c="dimmed">
                        {[t.family, t.type, t.action].filter(Boolean).join(' · ')}
                      </Text>
                    )}
                  </div>
                ) : (
                  <div style={{ flex: 1 }}>
                    <UnitPicker
                      utilityId={utilityId}
                      autoFocus
                      label="Unit for the new task"
                      onPick={(u) =>
                        set(t.key, { task_id: u.id, code: u.code, description: u.description, family: u.family, type: u.type, action: u.action, uom: u.uom })
                      }
                    />
                  </div>
                )}
                {canEdit && (
                  <Tooltip label="Remove task">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove task ${t.code || 'new'}`}
                      onClick={() => onChange(tasks.filter((x) => x.key !== t.key))}
                      mt={t.task_id > 0 ? 0 : 24}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
              {canEdit ? (
                <Group gap="sm" grow align="flex-end">
                  <NumberInput
                    label="Bid qty"
                    value={t.init_qty}
                    min={0}
                    max={MAX_TASK_QTY}
                    decimalScale={3}
                    error={fieldError(errors, `tasks.${i}.init_qty`)}
                    onChange={(v) => {
                      const init = Math.max(0, num(v));
                      set(t.key, { init_qty: init, additional_qty: clampAdditionalQty(init, t.additional_qty) });
                    }}
                  />
                  <NumberInput
                    label="Change to bid (+/-)"
                    value={t.additional_qty}
                    min={-t.init_qty}
                    max={MAX_TASK_QTY}
                    decimalScale={3}
                    clampBehavior="strict"
                    error={fieldError(errors, `tasks.${i}.additional_qty`)}
                    onChange={(v) => set(t.key, { additional_qty: clampAdditionalQty(t.init_qty, num(v)) })}
                  />
                  <TaskTotal init={t.init_qty} change={t.additional_qty} uom={t.uom} />
                </Group>
              ) : (
                <Group gap="sm" grow align="flex-start">
                  <ReadField label="Bid qty">{formatQty(t.init_qty)}</ReadField>
                  <ReadField label="Change to bid">{signedQty(t.additional_qty)}</ReadField>
                  <TaskTotal init={t.init_qty} change={t.additional_qty} uom={t.uom} />
                </Group>
              )}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}
