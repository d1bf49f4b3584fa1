import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { formatHistoryTime, historyValueText, historyWhat, historyWho, type HistoryEntry, type HistoryReply } from '../../shared/history.schemas';
import { LoadState } from './LoadState';

/**
 * A history as a person reads it (docs/product/records.md §1): newest first, each entry "when · who", what
 * changed, and old → new in words. A list of cards rather than a table, so that it reads at
 * 390 px; "Show older changes" loads the next page.
 */
export function HistoryList({
  query,
  ticketLabel,
}: {
  query: UseInfiniteQueryResult<InfiniteData<HistoryReply>>;
  /** In a job's history: which ticket an entry is about (its pole / line). */
  ticketLabel?: (e: HistoryEntry) => string | null;
}) {
  const entries = query.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <LoadState query={query} loading="Loading history" failed="Could not load the history">
      {entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          No changes recorded yet.
        </Text>
      ) : (
        <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Changes, newest first">
          {entries.map((e) => (
            <HistoryItem key={e.id} entry={e} ticket={ticketLabel?.(e) ?? null} />
          ))}
        </Stack>
      )}
      {query.hasNextPage && (
        <Group justify="center" mt="sm">
          <Button variant="default" size="xs" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
            Show older changes
          </Button>
        </Group>
      )}
    </LoadState>
  );
}

function HistoryItem({ entry: e, ticket }: { entry: HistoryEntry; ticket: string | null }) {
  const showValues = e.action !== 'create' && e.action !== 'delete';
  return (
    <Paper component="li" withBorder p="xs" radius="sm">
      <Text size="xs" c="dimmed">
        {formatHistoryTime(e.at)} · {historyWho(e)}
        {ticket ? ` · ${ticket}` : ''}
      </Text>
      <Text size="sm" fw={600}>
        {historyWhat(e)}
      </Text>
      {showValues && (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <Text span c="dimmed">
            {historyValueText(e.old)}
          </Text>
          {' → '}
          <Text span>{historyValueText(e.new)}</Text>
        </Text>
      )}
    </Paper>
  );
}
