/**
 * A script of its own (vite.config.ts `earlyJob()`), loaded by index.html as an async script
 * before the app: on a page opened at /job?id=N it asks for the job at once (api/earlyJob.ts).
 */
import { startEarlyJob } from './api/earlyJob';
import { jobIdFrom } from './app/jobId';

if (window.location.pathname === '/job') {
  const id = jobIdFrom(new URLSearchParams(window.location.search));
  if (id !== null) startEarlyJob(`/jobs/${id}`);
}
