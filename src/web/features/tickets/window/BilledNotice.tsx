import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { schemaResolver, useForm } from '@mantine/form';
import { UNLOCK_REASON_MAX, unlockForm } from '../../../../shared/invoices.schemas';
import { useUnlockTicket } from '../api/unlockTicket';

/** The rule of POST /tickets/{id}/unlock (src/shared/invoices.schemas): a reason, not blank. */
const unlockRules = schemaResolver(unlockForm, { sync: true });

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * A billed ticket in the ticket window (docs/product/billing.md §5): which invoice holds it and that its tasks
 * and status are locked; for roles 1–2, Unlock with a reason. Once unlocked, who, when and why.
 */
export function BilledNotice({
  ticket,
  canUnlock,
  onUnlocked,
}: {
  ticket: { id: number | null; invoice_number: string | null; billed_at: string | null; unlocked_at: string | null; unlock_reason: string | null; unlocked_by_name: string | null };
  canUnlock: boolean;
  /** Loads the unlocked ticket into the window (its version changed). */
  onUnlocked: () => void;
}) {
  const [asking, setAsking] = useState(false);
  // Kept while the dialog is closed and opened again, until an unlock succeeds.
  const form = useForm({ initialValues: { reason: '' }, validate: unlockRules });
  const unlock = useUnlockTicket();
  if (!ticket.billed_at || ticket.id == null) return null;
  const id = ticket.id;

  if (ticket.unlocked_at) {
    return (
      <Alert color="blue" icon={<IconLockOpen size={18} />} title={`Billed on ${ticket.invoice_number} — unlocked`} data-testid="billed-notice">
        <Text size="sm">
          Unlocked by {ticket.unlocked_by_name || 'someone'} on {when(ticket.unlocked_at)}: “{ticket.unlock_reason}”. Its tasks and status can change; the
          invoice keeps what was billed.
        </Text>
      </Alert>
    );
  }

  const submit = form.onSubmit(({ reason }) =>
    unlock.mutate(
      { id, reason: reason.trim() },
      {
        onSuccess: () => {
          setAsking(false);
          form.reset();
          onUnlocked();
        },
        onError: (err) => form.setFieldError('reason', err.message),
      },
    ),
  );

  return (
    <Alert color="yellow" icon={<IconLock size={18} />} title={`Billed on ${ticket.invoice_number} — tasks and status are locked`} data-testid="billed-notice">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          {canUnlock
            ? 'Unlock it to change its tasks or status. The invoice keeps what was billed, and the ticket is never billed again.'
            : 'Notes and photos can still be added. An Admin or Office Manager must unlock it before its tasks or status change.'}
        </Text>
        {canUnlock && (
          <Button size="xs" variant="default" leftSection={<IconLockOpen size={14} />} onClick={() => setAsking(true)}>
            Unlock
          </Button>
        )}
      </Stack>
      <Modal opened={asking} onClose={() => setAsking(false)} title={`Unlock the ticket billed on ${ticket.invoice_number}`} zIndex={400}>
        <Stack gap="sm">
          <Textarea
            label="Reason"
            description="Kept on the ticket, with your name and the time."
            required
            autosize
            minRows={2}
            maxLength={UNLOCK_REASON_MAX}
            {...form.getInputProps('reason')}
            data-autofocus
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setAsking(false)}>
              Cancel
            </Button>
            <Button onClick={() => submit()} loading={unlock.isPending}>
              Unlock ticket
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Alert>
  );
}
