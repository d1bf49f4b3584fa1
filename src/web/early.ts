/**
 * The page's one inline script (vite.config.ts `earlyJob()` bundles it on its own and writes it
 * into index.html's head, right after the charset; the server allows it by its hash). It runs as
 * the HTML is parsed, before the app's chunk has arrived: on a page opened at /job?id=N it asks
 * for the job at once (api/earlyJob.ts) and starts the job page's own chunks, which the app
 * would ask for only once its first chunk had arrived and run (decision 061).
 */
import { startEarlyJob } from './api/earlyJob';
import { jobIdFrom } from './app/jobId';
import { rememberedTicketView } from './features/tickets/rememberedView';

/** The job page's chunks and stylesheet, and the map's (written here by the build: `earlyJob()`). */
declare const LINECREW_EARLY_FILES: { job: string[]; map: string[] };
const FILES = LINECREW_EARLY_FILES;

/**
 * Starts each file as the app's own dynamic import would fetch it: a module preload (CORS,
 * same-origin credentials), a stylesheet preload. At low priority: over HTTP/1.1's six
 * connections the ~45 files would otherwise go before the session check and the job (both
 * high), which the page needs as much; the browser sends the low ones whenever no high one waits.
 */
function preload(files: readonly string[]) {
  for (const href of files) {
    const link = document.createElement('link');
    if (href.endsWith('.css')) {
      link.rel = 'preload';
      link.as = 'style';
    } else link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.fetchPriority = 'low';
    link.href = href;
    document.head.appendChild(link);
  }
}

if (window.location.pathname === '/job') {
  const id = jobIdFrom(new URLSearchParams(window.location.search));
  if (id !== null) {
    startEarlyJob(`/jobs/${id}`);
    preload(FILES.job);
    if (rememberedTicketView() === 'map') preload(FILES.map);
  }
}
