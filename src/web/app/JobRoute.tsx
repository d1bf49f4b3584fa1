import { lazy, Suspense } from 'react';
import { Alert, Anchor, Container, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import { jobQuery } from '../api/job';
import { usePageTitle } from '../components/usePageTitle';
import { useWhenIdle } from '../components/useWhenIdle';
import { can } from '../../shared/permissions';
import { useSession } from '../api/session';
import JobDetailHeader from '../features/jobs/JobDetailHeader';
import TicketsSection from '../features/tickets/TicketsSection';
import { jobIdFrom } from './jobId';

// Production and invoices are for roles 1–3 (docs/product/billing.md §4): their code loads only for them, so a
// crew's job page (and its tickets table) carries none of it.
const ProductionSection = lazy(() => import('../features/production/ProductionSection'));
const InvoicesSection = lazy(() => import('../features/invoices/InvoicesSection'));

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
  // Production and invoices (docs/product/billing.md §4) are for roles 1–3; crews never request them.
  const { claims } = useSession();
  const billing = can(claims?.roleId, 'billing.read');
  // Below the tickets, they mount once the tickets are on screen: their chunks, their requests and
  // the server's production sums (hundreds of ms of CPU for 5,000 tickets) then never compete with
  // the tickets' first paint (decision 060).
  const belowTickets = useWhenIdle(Boolean(job.data));
  if (id === null) return <NoJobNamed />;
  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <JobDetailHeader jobId={id} />
        {!missing && <TicketsSection jobId={id} />}
        {/* After the tickets: they are what everyone opens a job for, and on a phone the first
            ticket must be on the first screen (the table scrolls in its own box; cards page). */}
        {!missing && billing && job.data && belowTickets && (
          <Suspense fallback={null}>
            <ProductionSection jobId={id} utilityId={job.data.selected_utility_id} />
            <InvoicesSection jobId={id} />
          </Suspense>
        )}
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
