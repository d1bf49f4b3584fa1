import { memo, type RefObject } from 'react';
import { useNavigate } from 'react-router';
import { Badge, Button, Group, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconArrowLeft, IconListCheck, IconPlus } from '@tabler/icons-react';
import { ChoiceButtons } from '../../components/ChoiceButtons';
import { SpreadsheetButton } from './spreadsheet/SpreadsheetButton';
import type { TicketView } from './rememberedView';

const VIEWS: readonly { value: TicketView; label: string }[] = [
  { value: 'table', label: 'Table' },
  { value: 'map', label: 'Map' },
];

/**
 * The head of the ticket part: the count, Table or Map, Back, Create Ticket, Create Task and
 * Upload Spreadsheet. Memoised on what it shows: a re-sort (or a tick in the table) then
 * re-renders the table alone, not a dozen Mantine components (the re-sort budget is 100 ms on a
 * slow phone).
 */
export const TicketsToolbar = memo(function TicketsToolbar({
  total,
  complete,
  view,
  onView,
  canWrite,
  canEdit,
  selectedCount,
  onCreateTicket,
  onCreateTask,
  onSpreadsheet,
  reading,
  resetFile,
}: {
  total: number;
  complete: number;
  view: TicketView;
  onView: (v: TicketView) => void;
  canWrite: boolean;
  canEdit: boolean;
  selectedCount: number;
  onCreateTicket: () => void;
  onCreateTask: () => void;
  onSpreadsheet: (file: File | null) => void;
  reading: boolean;
  resetFile: RefObject<(() => void) | null>;
}) {
  const navigate = useNavigate();
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Group gap="xs">
        <Title order={2} size="h3">
          Tickets
        </Title>
        <Badge variant="light" color="gray">
          {/* A badge may not carry a name (axe: aria-prohibited-attr), so the words read aloud are hidden text. */}
          <span aria-hidden="true">
            {complete}/{total} complete
          </span>
          <VisuallyHidden>
            {total} tickets, {complete} complete
          </VisuallyHidden>
        </Badge>
        {/* Pressed buttons, not a SegmentedControl: see components/ChoiceButtons.tsx. Compact (26 px
            high, above WCAG 2.5.8's 24 px): beside the title on a phone, so the first ticket card
            stays on the first screen. */}
        {total > 0 && <ChoiceButtons label="Show the tickets as" options={VIEWS} value={view} onChange={onView} size="compact-sm" />}
      </Group>
      <Group gap="xs" wrap="wrap">
        <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate('/jobs')}>
          Back
        </Button>
        {canWrite && (
          <Button leftSection={<IconPlus size={16} />} onClick={onCreateTicket}>
            Create Ticket
          </Button>
        )}
        {canEdit && (
          <Tooltip label="Tick the tickets to add a task to first" disabled={selectedCount > 0}>
            <Button
              variant="light"
              leftSection={<IconListCheck size={16} />}
              onClick={onCreateTask}
              disabled={selectedCount === 0}
              data-disabled={selectedCount === 0 || undefined}
            >
              Create Task{selectedCount ? ` (${selectedCount})` : ''}
            </Button>
          </Tooltip>
        )}
        {canWrite && <SpreadsheetButton onFile={onSpreadsheet} reading={reading} resetRef={resetFile} />}
      </Group>
    </Group>
  );
});
