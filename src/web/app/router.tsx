import { Component, lazy, Suspense, useLayoutEffect, type ErrorInfo, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { Center } from '@mantine/core';
import { Spinner } from '../components/Spinner';
import { jobQuery } from '../api/job';
import { isSignedIn, useSession } from '../api/session';
import { installHistoryGuard } from '../components/useBlocker';
import { preloadTicketMap } from '../components/map/loadTicketMap';
import { rememberedTicketView } from '../features/tickets/rememberedView';
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
const SettingsPage = lazy(() => import('../features/auth/SettingsPage'));
const JobsPage = lazy(() => import('../features/jobs/JobsPage'));
const loadJobPage = () => import('./JobRoute');
const JobPage = lazy(loadJobPage);
const CrewPage = lazy(() => import('../features/crew/CrewPage'));
const WorkPage = lazy(() => import('../features/work/WorkPage'));
const WorkTicketPage = lazy(() => import('../features/work/WorkTicketPage'));
const UnitLibraryPage = lazy(() => import('../features/production/UnitLibraryPage'));
// The dashboard carries the chart library (recharts): only its own chunk loads it.
const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage'));
const WebhooksPage = lazy(() => import('../features/webhooks/WebhooksPage'));

// Before the router listens to the history: the ticket editor's Back guard must see a move first.
installHistoryGuard();

function Page({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <Center py="xl">
          <Spinner label="Loading" />
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
 * other (docs/product/scale.md §3: a 5,000-ticket job usable < 1.5 s): the job itself (the page reads the same
 * query), the page's code, which RequireAuth would otherwise ask for only once the session check
 * has answered, and, when this device last showed the tickets on a map, the map's code and
 * config. Nothing waits for them here; errors show on the page itself.
 */
function prefetchJob(id: number) {
  if (!isSignedIn()) return;
  void queryClient.prefetchQuery(jobQuery(id));
  // The map before the page's chunk: the browser opens at most 6 connections to the server, and
  // the page's chunk brings some 40 small ones; asked after them, the map's chunk arrived after
  // the job itself and delayed the first points (trace of a 5,000-ticket job; decision 060).
  if (rememberedTicketView() === 'map') preloadTicketMap(queryClient);
  void loadJobPage().catch(() => {}); // a failed chunk is the lazy page's to report
}

// A page opened at /job?id=… asks for all that as this module loads, beside the session check,
// not after React's first render: that render (and the app's start before it) took 150–400 ms of
// a cold load of the big job, with the job's request and the page's ~45 chunks waiting behind it
// (trace; decision 060). The hook below then finds the query fresh or on its way (staleTime): no
// second request.
if (typeof window !== 'undefined' && window.location.pathname === '/job') {
  const id = jobIdFrom(new URLSearchParams(window.location.search));
  if (id !== null) prefetchJob(id);
}

/** The same before the first paint of every move to another job (opening or closing a ticket of the same job starts nothing). */
function usePrefetchJob() {
  const { pathname, search } = useLocation();
  const id = pathname === '/job' ? jobIdFrom(new URLSearchParams(search)) : null;
  useLayoutEffect(() => {
    if (id !== null) prefetchJob(id);
  }, [id]);
}

/**
 * docs/product/screens.md §1.3's error boundary around every page: "Something went wrong." with the details. A move to
 * another address (Back included) shows that page again, as the data router's errorElement did.
 */
class PageErrorBoundary extends Component<{ children: ReactNode; address: string }, { error: unknown; address: string }> {
  state = { error: null as unknown, address: this.props.address };
  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('Unknown error') };
  }
  static getDerivedStateFromProps(props: { address: string }, state: { address: string }) {
    return props.address === state.address ? null : { error: null, address: props.address };
  }
  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }
  render() {
    return this.state.error ? <ErrorPage error={this.state.error} /> : this.props.children;
  }
}

function PageErrors({ children }: { children: ReactNode }) {
  const { pathname, search } = useLocation();
  return <PageErrorBoundary address={pathname + search}>{children}</PageErrorBoundary>;
}

function AppRoutes() {
  usePrefetchJob();
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route path="/" element={<Home />} />
        <Route path="/login" element={<Page><LoginPage /></Page>} />
        <Route path="/resetPassword" element={<Page><ResetPasswordPage /></Page>} />
        <Route element={<RequireAuth />}>
          <Route path="/jobs" element={<Page><JobsPage /></Page>} />
          <Route path="/job" element={<Page><JobPage /></Page>} />
          <Route path="/user" element={<Page><UserPage /></Page>} />
          <Route path="/settings" element={<Page><SettingsPage /></Page>} />
          <Route path="/crew" element={<Page><CrewPage /></Page>} />
          <Route path="/work" element={<Page><WorkPage /></Page>} />
          <Route path="/work/:ticketId" element={<Page><WorkTicketPage /></Page>} />
          <Route path="/units" element={<Page><UnitLibraryPage /></Page>} />
          <Route path="/dashboard" element={<Page><DashboardPage /></Page>} />
          <Route path="/webhooks" element={<Page><WebhooksPage /></Page>} />
        </Route>
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}

/**
 * React Router's declarative router, not its data router (createBrowserRouter): the data router
 * is ~17 KB gzip more of every first load (docs/product/scale.md §3; decision 029), for a loader (usePrefetchJob above), an
 * error element (PageErrorBoundary) and a Back guard (components/useBlocker.ts).
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <PageErrors>
        <AppRoutes />
      </PageErrors>
    </BrowserRouter>
  );
}
