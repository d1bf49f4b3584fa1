import { Badge, Button, Group, Paper, Text } from '@mantine/core';
import { IconCircleCheck, IconRotate } from '@tabler/icons-react';
import { TICKET_STATUS } from '../../../../../shared/constants';
import { companyDay } from '../../../../api/session';
import { confirmCompleteDig } from '../../../../components/confirmCompleteDig';
import { CompletionRecord } from '../../../../components/Evidence';
import type { TicketDraft } from '../ticketDraft';

/**
 * The ticket's status, its completion record (who, when, where: docs/product/records.md §6), and Mark Complete / Reopen Ticket for those who may.
 * A ticket not clear to dig asks before it is marked complete (docs/product/records.md §5).
 */
export function StatusBar({
  draft,
  canMark,
  onMarkStatus,
  saving,
}: {
  draft: TicketDraft;
  /** May edit, the ticket exists and is not billed-and-locked. */
  canMark: boolean;
  onMarkStatus: (status: 'Pending' | 'Complete') => void;
  saving: boolean;
}) {
  const complete = draft.status === TICKET_STATUS.COMPLETE;
  return (
    <Paper withBorder p="sm" bg={complete ? 'var(--mantine-color-green-light)' : undefined}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs">
          <Text fw={600}>Status</Text>
          <Badge color={complete ? 'green' : 'gray'} size="lg" variant={complete ? 'filled' : 'light'}>
            {draft.status}
          </Badge>
          {complete && <CompletionRecord ticket={draft} />}
        </Group>
        {canMark &&
          (complete ? (
            <Button variant="default" leftSection={<IconRotate size={16} />} onClick={() => onMarkStatus('Pending')} loading={saving}>
              Reopen Ticket
            </Button>
          ) : (
            <Button color="green" leftSection={<IconCircleCheck size={16} />} onClick={() => void confirmCompleteDig(draft, companyDay()).then((yes) => yes && onMarkStatus('Complete'))} loading={saving}>
              Mark Complete
            </Button>
          ))}
      </Group>
    </Paper>
  );
}
