import { memo, startTransition, useEffect, useState } from 'react';
import { Badge, Button, Checkbox, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import { isoToUs } from '../../../shared/dates';
import type { TicketRow } from '../../../shared/tickets.schemas';
import { companyDay } from '../../api/session';
import { TicketDigBadges } from '../../components/DigSafe';
import { DocCircle } from './DocCircle';

/** Cards shown at first and per "Show more": a phone lays out a few dozen cards at a time, not 5,000. */
const PAGE = 50;
/**
 * Cards drawn with the page itself: a phone's first screen and a little more. The rest of the first
 * page follows as a transition, which React builds in slices between other work: 50 cards at once
 * were one long task of the job page's load on a phone (decision 058).
 */
const FIRST = 8;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "2 tasks · 1 photo · 0 notes": what is on the ticket, before opening it. */
const countsText = (t: Pick<TicketRow, 'task_count' | 'photo_count' | 'note_count'>) =>
  [plural(t.task_count, 'task'), plural(t.photo_count, 'photo'), plural(t.note_count, 'note')].join(' · ');

const Card = memo(function Card({
  t,
  selectable,
  selected,
  onToggle,
  onOpen,
}: {
  t: TicketRow;
  selectable: boolean;
  selected: boolean;
  onToggle: (id: number) => void;
  onOpen: (id: number) => void;
}) {
  const complete = t.status === 'Complete';
  return (
    <Paper withBorder p={0} data-testid="ticket-card" bg={selected ? 'var(--mantine-color-blue-light)' : undefined} style={{ display: 'flex', alignItems: 'stretch' }}>
      {selectable && (
        // A 44 px column of its own: ticking a card never opens it by mistake.
        <label style={{ display: 'flex', alignItems: 'flex-start', padding: '12px 0 12px 12px', minWidth: 44, cursor: 'pointer' }}>
          <Checkbox aria-label={`Select pole ${t.pole_name ?? ''}`} checked={selected} onChange={() => onToggle(t.id)} size="md" />
        </label>
      )}
      <UnstyledButton
        onClick={() => onOpen(t.id)}
        data-ticket-id={t.id}
        // Named by what it shows, starting with "Pole … · Line …" (WCAG 2.5.3 Label in Name).
        style={{ flex: 1, minWidth: 0, padding: 12 }}
      >
        <Stack gap={4}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text fw={700} truncate="end">
              Pole {t.pole_name ?? '--'} · Line {t.line_name ?? '--'}
            </Text>
            <Group gap={4} wrap="nowrap" style={{ flex: 'none' }}>
              {t.invoice_number && (
                <Badge variant="light" color="violet" data-testid="billed-badge" title={`Billed on ${t.invoice_number}`}>
                  Billed {t.invoice_number}
                </Badge>
              )}
              <Badge variant={complete ? 'filled' : 'light'} color={complete ? 'green' : 'gray'} style={{ flex: 'none' }}>
                {t.status}
              </Badge>
            </Group>
          </Group>
          <Group gap={4} wrap="nowrap">
            {t.geo_lat != null && t.geo_lon != null && <IconMapPin size={16} aria-label="Has GPS" role="img" style={{ flex: 'none' }} />}
            <Text size="sm" truncate="end">
              {t.street_address || 'No address'}
            </Text>
          </Group>
          {(t.work_orders ?? []).length > 0 && (
            <Text size="sm" truncate="end">
              Work order: {t.work_orders.join(', ')}
            </Text>
          )}
          <Group gap="md" style={{ rowGap: 2 }}>
            <Text size="sm">Due: {t.due_date ? isoToUs(t.due_date) : '--'}</Text>
            <Text size="sm">{t.assigned_to_name ? `WF Crew: ${t.assigned_to_name}` : 'Unassigned'}</Text>
          </Group>
          <Text size="sm" data-testid="ticket-card-counts">
            {countsText(t)}
          </Text>
          <Group gap="md" style={{ rowGap: 2 }}>
            <Group gap={4} wrap="nowrap">
              <DocCircle what="Digsafe" required={t.dig_safe_required} url={t.dig_safe_url} />
              <Text size="sm">Dig Safe</Text>
            </Group>
            <Group gap={4} wrap="nowrap">
              <DocCircle what="NRA/DNR" required={t.nra_required} url={t.nra_url} />
              <Text size="sm">NRA/DNR</Text>
            </Group>
            <TicketDigBadges ticket={t} today={companyDay()} />
          </Group>
        </Stack>
      </UnstyledButton>
    </Paper>
  );
});

/**
 * On a phone each ticket is a card: pole and line, status, street, due date,
 * crew, how many tasks, photos and notes it has, and the document marks, with no sideways scroll. The same data-ticket-id as a table row,
 * so focus can go back to the card that opened the ticket window.
 */
export function TicketCards({
  rows,
  selectable,
  selected,
  onToggle,
  onOpen,
  emptyText,
}: {
  rows: TicketRow[];
  selectable: boolean;
  selected: ReadonlySet<number>;
  onToggle: (id: number) => void;
  onOpen: (id: number) => void;
  emptyText: string;
}) {
  const [limit, setLimit] = useState(PAGE);
  const [drawn, setDrawn] = useState(FIRST);
  useEffect(() => {
    if (drawn < PAGE) startTransition(() => setDrawn(PAGE));
  }, [drawn]);
  if (rows.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="md">
        {emptyText}
      </Text>
    );
  }
  const shown = rows.slice(0, drawn < PAGE ? drawn : limit);
  return (
    // "Show more" sits after the list, not in it: a list holds list items only (axe aria-required-children).
    <Stack gap="xs">
      <Stack gap="xs" role="list" aria-label="Tickets">
        {shown.map((t) => (
          <div role="listitem" key={t.id}>
            <Card t={t} selectable={selectable} selected={selected.has(t.id)} onToggle={onToggle} onOpen={onOpen} />
          </div>
        ))}
      </Stack>
      {rows.length > limit && (
        <Button variant="default" onClick={() => setLimit((l) => l + PAGE)}>
          Show {Math.min(PAGE, rows.length - limit)} more of {rows.length - limit}
        </Button>
      )}
    </Stack>
  );
}
