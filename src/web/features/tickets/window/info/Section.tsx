import { Paper, Stack, Title } from '@mantine/core';
import type { FormErrors } from '@mantine/form';
import type { TicketDraft } from '../ticketDraft';

/** One titled part of the Info tab. */
export function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Title order={5}>{title}</Title>
        {children}
      </Stack>
    </Paper>
  );
}

/** What every editable part of the Info tab is given: the draft, its change, a refused save's messages, and whether it is read only. */
export interface SectionProps {
  draft: TicketDraft;
  update: (patch: Partial<TicketDraft>) => void;
  errors: FormErrors;
  readOnly: boolean;
}

export const WHEN = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
