import { useState } from 'react';
import { Button, Stack, Title } from '@mantine/core';
import { useTicketHistory } from '../../api/history';
import { HistoryList } from '../../components/HistoryList';

/**
 * The phone ticket view's History (docs/product/records.md §1): asked for only when the crew opens it (it needs
 * a connection and is not kept on the phone), so a ticket opened at the pole loads nothing more.
 */
export function WorkTicketHistory({ ticketId }: { ticketId: number }) {
  const [open, setOpen] = useState(false);
  return (
    <Stack gap="xs" component="section" aria-labelledby="work-history">
      <Title order={2} size="h4" id="work-history">
        History
      </Title>
      {open ? (
        <Entries ticketId={ticketId} />
      ) : (
        <Button size="md" variant="default" onClick={() => setOpen(true)}>
          Show who changed what
        </Button>
      )}
    </Stack>
  );
}

function Entries({ ticketId }: { ticketId: number }) {
  return <HistoryList query={useTicketHistory(ticketId)} />;
}
