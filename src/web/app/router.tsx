import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, RouterProvider, type LoaderFunctionArgs, type ShouldRevalidateFunctionArgs } from 'react-router';
import { Center, Loader } from '@mantine/core';
import { jobQuery } from '../api/job';
import { isSignedIn, useSession } from '../api/session';
import { preloadTicketMap } from '../components/map/loadTicketMap';
import { rememberedTicketView } from '../features/tickets/ticketView';
import { jobIdFrom } from './jobId';
import { queryClient } from './providers';
import { Layout } from './Layout';
import { RequireAuth } from './RequireAuth';
import { ErrorPage } from './ErrorPage';
import { NotFound } from './NotFound';

// Each page is its own chunk, so the login page stays small.
const LoginPage = lazy(() => import('../features/auth/LoginPage'));
const ResetPasswordPage = lazy(() => import('../features/auth/ResetPasswordPage'));
const UserPage = lazy(() => import('../features/auth/UserPage'));
const JobsPage = lazy(() => import('../features/jobs/JobsPage'));
const loadJobPage = () => import('./JobRoute');
const JobPage = lazy(loadJobPage);
const CrewPage = lazy(() => import('../features/crew/CrewPage'));
const WorkPage = lazy(() => import('../features/work/WorkPage'));
const WorkTicketPage = lazy(() => import('../features/work/WorkTicketPage'));
const UnitLibraryPage = lazy(() => import('../features/production/UnitLibraryPage'));
// The dashboard carries the chart library (recharts): only its own chunk loads it.
const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage'));

function Page({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <Center py="xl">
          <Loader aria-label="Loading" />
        </Center>
      }
    >
      {children}
    </Suspense>
  );
}

function Home() {
  const { status } = useSession();
  if (status === 'checking') return null;
  return <Navigate to={status === 'in' ? '/jobs' : '/login'} replace />;
}

/**
 * /job?id=…: everything the page needs starts at once, side by side, instead of one after the
 * other (issue 15: a 5,000-ticket job usable < 1.5 s): the job itself (the page reads the same
 * query), the page's code, which RequireAuth would otherwise ask for only once the session check
 * has answered, and, when this device last showed the tickets on a map, the map's code and
 * config. Nothing waits for them here; errors show on the page itself.
 */
function prefetchJob({ request }: LoaderFunctionArgs) {
  const id = jobIdFrom(new URL(request.url).searchParams);
  if (isSignedIn() && id !== null) {
    void queryClient.prefetchQuery(jobQuery(id));
    void loadJobPage().catch(() => {}); // a failed chunk is the lazy page's to report
    if (rememberedTicketView() === 'map') preloadTicketMap(queryClient);
  }
  return null;
}

/** Opening or closing a ticket (&ticket=…) changes the address but not the job: no new request. */
function sameJobNoReload({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return jobIdFrom(currentUrl.searchParams) !== jobIdFrom(nextUrl.searchParams) && defaultShouldRevalidate;
}

const router = createBrowserRouter([
  {
    element: <Layout />,
    errorElement: <ErrorPage />,
    children: [
      { path: '/', element: <Home /> },
      { path: '/login', element: <Page><LoginPage /></Page> },
      { path: '/resetPassword', element: <Page><ResetPasswordPage /></Page> },
      {
        element: <RequireAuth />,
        children: [
          { path: '/jobs', element: <Page><JobsPage /></Page> },
          { path: '/job', loader: prefetchJob, shouldRevalidate: sameJobNoReload, element: <Page><JobPage /></Page> },
          { path: '/user', element: <Page><UserPage /></Page> },
          { path: '/crew', element: <Page><CrewPage /></Page> },
          { path: '/work', element: <Page><WorkPage /></Page> },
          { path: '/work/:ticketId', element: <Page><WorkTicketPage /></Page> },
          { path: '/units', element: <Page><UnitLibraryPage /></Page> },
          { path: '/dashboard', element: <Page><DashboardPage /></Page> },
        ],
      },
      { path: '*', element: <NotFound /> },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
