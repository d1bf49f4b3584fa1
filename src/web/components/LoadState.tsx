import type { ReactNode } from 'react';
import { Alert, Button, Center, Group, Text } from '@mantine/core';
import { Spinner } from './Spinner';

/** What LoadState reads of a query (TanStack Query's result has all of it). */
export interface Loadable {
  isLoading: boolean;
  isError: boolean;
  error: Error | null;
  refetch: () => unknown;
}

/**
 * Whatever a page loads: a named spinner while it loads, why it failed with a Try again when it
 * failed, else the page's own content.
 */
export function LoadState({ query, loading, failed, children }: { query: Loadable; loading: string; failed: string; children?: ReactNode }) {
  if (query.isLoading)
    return (
      <Center py="xl">
        <Spinner label={loading} />
      </Center>
    );
  if (query.isError)
    return (
      <Alert color="red" role="alert" title={failed}>
        <Group justify="space-between">
          <Text size="sm">{query.error?.message}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </Group>
      </Alert>
    );
  return children;
}
