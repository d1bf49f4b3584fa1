import { Alert, Button, Code, Stack } from '@mantine/core';
import { SHELL_MSG } from '../../shared/messages-shell';
import { usePageTitle } from '../components/usePageTitle';

/** The error boundary of docs/product/screens.md §1.3: 'Something went wrong.' with details. */
export function ErrorPage({ error }: { error: unknown }) {
  usePageTitle('Something went wrong');
  const detail = error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
  return (
    <Stack p="md" maw={720} mx="auto">
      <Alert color="red" title={SHELL_MSG.generic} role="alert">
        {/* Wrapped: a long message (a chunk URL) must be readable on a phone, not cut at the edge. */}
        <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {detail}
        </Code>
      </Alert>
      <Button variant="light" onClick={() => window.location.assign('/')}>
        Reload Linecrew
      </Button>
    </Stack>
  );
}
