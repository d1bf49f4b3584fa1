/**
 * Registers the service worker (/sw.js, vite.config.ts) and tells when a new release is installed
 * and waiting beside the running one. Our own few lines instead of vite-plugin-pwa's
 * useRegisterSW, which loads workbox-window (~2.7 KB gzip with its glue) on every first load for
 * these same events (the initial JavaScript budgets, docs/product/scale.md §3).
 */
type Listener = (activate: () => void) => void;

const listeners = new Set<Listener>();
let started = false;
let waitingActivate: (() => void) | null = null;

/** Calls `listener` with a function that switches to the new release and reloads, once one waits. */
export function onUpdateReady(listener: Listener): () => void {
  listeners.add(listener);
  if (waitingActivate) listener(waitingActivate);
  if (!started) start();
  return () => listeners.delete(listener);
}

function start() {
  started = true;
  if (!('serviceWorker' in navigator)) return;
  // After the page's own load, as workbox-window does: the worker's precache download must not
  // compete with the first paint for a slow connection.
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}

async function register() {
  const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => null);
  if (!registration) return;
  // A worker waits only while another one controls the page. The very first install takes
  // control at once (clientsClaim) and is no new release: nothing to offer then.
  const offer = () => {
    const waiting = registration.waiting;
    if (!waiting || !navigator.serviceWorker.controller) return;
    waitingActivate = () => activate(waiting);
    listeners.forEach((l) => l(waitingActivate!));
  };
  offer();
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => installing.state === 'installed' && offer());
  });
  // An app left open on a phone for days still learns of a new release.
  setInterval(() => void registration.update().catch(() => undefined), 60 * 60 * 1000);
}

function activate(waiting: ServiceWorker) {
  // Reload only once the new worker controls the page, so the reload gets the new release.
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
  // The generated worker (registerType 'prompt') skips waiting on this message.
  waiting.postMessage({ type: 'SKIP_WAITING' });
}
