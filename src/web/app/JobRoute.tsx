import { Alert, Anchor, Container, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import { jobQuery } from '../api/job';
import { usePageTitle } from '../components/usePageTitle';
import { can } from '../../shared/permissions';
import { useSession } from '../api/session';
import JobDetailHeader from '../features/jobs/JobDetailHeader';
import ProductionSection from '../features/production/ProductionSection';
import TicketsSection from '../features/tickets/TicketsSection';
import InvoicesSection from '../features/invoices/InvoicesSection';
import { jobIdFrom } from './jobId';

/**
 * /job?id=… composes the jobs feature (header, edit, delete, export) and the tickets feature
 * (table and ticket window). Features never import each other, so the page is put together here;
 * both read the job through the same query key (api/queryKeys.ts).
 */
export default function JobRoute() {
  const [params] = useSearchParams();
  const id = jobIdFrom(params);
  // The same query the header and the tickets read (no second request): a job that does not
  // exist is one "not found" with a way back, not a header and a tickets error.
  const job = useQuery({ ...jobQuery(id ?? 0), enabled: id !== null });
  const missing = job.error instanceof ApiError && job.error.status === 404;
  // Production (DESIGN §7.3) is for roles 1–3; crews never request it.
  const { claims } = useSession();
  const production = can(claims?.roleId, 'billing.read');
  if (id === null) return <NoJobNamed />;
  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <JobDetailHeader jobId={id} />
        {!missing && production && job.data && <ProductionSection jobId={id} utilityId={job.data.selected_utility_id} />}
        {/* Roles 1–3 only (DESIGN §7.3); the section renders nothing for the others. */}
        {!missing && job.data && <InvoicesSection jobId={id} />}
        {!missing && <TicketsSection jobId={id} />}
      </Stack>
    </Container>
  );
}

function NoJobNamed() {
  usePageTitle('Job not found');
  return (
    <Container size="sm" py="md">
      <Alert color="red" role="alert" title="Job not found">
        <Stack gap="xs" align="flex-start">
          This link does not name a job. Open the job from the job list.
          <Anchor component={Link} to="/jobs" size="sm">
            Back to the job list
          </Anchor>
        </Stack>
      </Alert>
    </Container>
  );
}
