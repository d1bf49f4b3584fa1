/**
 * A script of its own (vite.config.ts `earlyJob()`), loaded by index.html as an async script
 * before the app: on a page opened at /job?id=N it asks for the job at once (api/earlyJob.ts).
 * The server's HTML of /job carries earlyJobPage.ts instead, which also starts the page's files
 * (decision 064); this one is what the service worker's cached index.html runs there.
 */
import { startEarlyJob } from './api/earlyJob';
import { jobIdFrom } from './app/jobId';

if (window.location.pathname === '/job') {
  const id = jobIdFrom(new URLSearchParams(window.location.search));
  if (id !== null) startEarlyJob(`/jobs/${id}`);
}
