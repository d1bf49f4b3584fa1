/**
 * A script of its own (vite.config.ts `earlyJob()`), loaded by index.html as an async script
 * before the app: on a page opened at /job?id=N it asks for the job at once (api/earlyJob.ts),
 * then starts the job page's own files (and the map's, on a device that opens the job on its map)
 * from the list the server wrote into the page (decision 064), instead of once the app's first
 * chunk has arrived and run. The job first: over HTTP/1.1's six connections a request waits for
 * those asked before it.
 */
import { startEarlyJob } from './api/earlyJob';
import { jobIdFrom } from './app/jobId';
import { rememberedTicketView } from './features/tickets/rememberedView';
import { PRELOADS_ID, type PagePreloads } from '../shared/page-preloads';

/** `<link rel=modulepreload>` for each chunk (a stylesheet: `preload as=style`), as Vite's own preloads: the app's import() then finds them. */
function preload(files: string[]) {
  for (const href of files) {
    const link = document.createElement('link');
    if (href.endsWith('.css')) {
      link.rel = 'preload';
      link.as = 'style';
    } else link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  }
}

if (window.location.pathname === '/job') {
  const id = jobIdFrom(new URLSearchParams(window.location.search));
  if (id !== null) {
    startEarlyJob(`/jobs/${id}`);
    // Absent from an index.html the service worker serves (a repeat visit, whose files it has
    // already): the router's prefetch asks for them then, as before.
    const block = document.getElementById(PRELOADS_ID);
    if (block?.textContent) {
      const { files, map } = JSON.parse(block.textContent) as PagePreloads;
      // The map first, as the router does: asked after the page's ~45 files, it arrived after the job.
      preload(rememberedTicketView() === 'map' ? [...map, ...files] : files);
    }
  }
}
