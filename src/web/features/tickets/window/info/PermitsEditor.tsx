import { ActionIcon, Button, Group, Paper, Select, Stack, Text, Tooltip } from '@mantine/core';
import type { FormErrors } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { UploadField } from '../../../../components/upload/UploadField';
import { usePermitTypes } from '../../api/permitTypes';
import { RecordFields } from './RecordFields';
import { fieldError, newKey, type DraftPermit, type TicketDraft } from '../ticketDraft';

/** The ticket's permits, each a type and a document; Add Permit and Remove permit N. */
export function PermitsEditor({
  permits,
  update,
  errors,
  onBusy,
  today,
}: {
  permits: DraftPermit[];
  update: (patch: Partial<TicketDraft>) => void;
  errors: FormErrors;
  onBusy: (busy: boolean) => void;
  /** The company's calendar day: the permits' expiry badges. */
  today: string;
}) {
  const permitTypes = usePermitTypes();
  const setPermit = (key: string, patch: Partial<DraftPermit>) => update({ permits: permits.map((p) => (p.key === key ? { ...p, ...patch } : p)) });
  return (
    <>
      {permits.length === 0 && (
        <Text size="sm" c="dimmed">
          No permits.
        </Text>
      )}
      {permits.map((p, i) => (
        <Paper key={p.key} withBorder p="xs">
          <Stack gap="xs">
            <Group align="flex-end" gap="xs" wrap="nowrap">
              <Select
                label={`Permit ${i + 1} type`}
                placeholder="Choose a type"
                data={(permitTypes.data ?? []).map((t) => ({ value: String(t.id), label: t.title }))}
                value={p.permit_type != null ? String(p.permit_type) : null}
                onChange={(v) => setPermit(p.key, { permit_type: v ? Number(v) : null, permit_type_title: permitTypes.data?.find((t) => String(t.id) === v)?.title ?? null })}
                clearable
                style={{ flex: 1 }}
                comboboxProps={{ withinPortal: true }}
                error={fieldError(errors, `permits.${i}.permit_type`)}
              />
              <Tooltip label="Remove permit">
                <ActionIcon variant="subtle" color="red" aria-label={`Remove permit ${i + 1}`} onClick={() => update({ permits: permits.filter((x) => x.key !== p.key) })} mb={4}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
            <UploadField
              kind="permit"
              label="Permit document"
              value={p.permit_url ? { url: p.permit_url, name: p.permit_name ?? p.filename ?? 'Permit' } : null}
              onChange={(f) =>
                setPermit(
                  p.key,
                  f
                    ? { permit_url: f.url, permit_name: f.name, filename: f.name, permit_file_type: f.type }
                    : // docs/product/rules.md §2.5: removing a permit document clears its url, name and type.
                      { permit_url: null, permit_name: null, filename: null, permit_file_type: null, permit_type: null, permit_type_title: null },
                )
              }
              onBusyChange={onBusy}
              removable
            />
            <RecordFields
              label={`Permit ${i + 1}`}
              values={p}
              onChange={(patch) => setPermit(p.key, patch)}
              errors={errors}
              paths={{ number: `permits.${i}.number`, valid_from: `permits.${i}.valid_from`, expires_on: `permits.${i}.expires_on` }}
              readOnly={false}
              today={today}
            />
          </Stack>
        </Paper>
      ))}
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} />}
          onClick={() =>
            update({
              permits: [
                ...permits,
                {
                  key: newKey('permit'),
                  id: null,
                  permit_type: null,
                  permit_type_title: null,
                  permit_url: null,
                  permit_name: null,
                  permit_file_type: null,
                  filename: null,
                  number: null,
                  valid_from: null,
                  expires_on: null,
                },
              ],
            })
          }
        >
          Add Permit
        </Button>
      </Group>
    </>
  );
}
