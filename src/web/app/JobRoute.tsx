import { Alert, Container, Stack } from '@mantine/core';
import { useSearchParams } from 'react-router';
import JobDetailHeader from '../features/jobs/JobDetailHeader';
import TicketsSection from '../features/tickets/TicketsSection';
import { jobIdFrom } from './jobId';

/**
 * /job?id=… composes the jobs feature (header, edit, delete, export) and the tickets feature
 * (table and ticket window). Features never import each other, so the page is put together here;
 * both read the job through the same query key (api/queryKeys.ts).
 */
export default function JobRoute() {
  const [params] = useSearchParams();
  const id = jobIdFrom(params);
  if (id === null) {
    return (
      <Container size="sm" py="md">
        <Alert color="red" role="alert">
          This link does not name a job. Open the job from the job list.
        </Alert>
      </Container>
    );
  }
  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <JobDetailHeader jobId={id} />
        <TicketsSection jobId={id} />
      </Stack>
    </Container>
  );
}
