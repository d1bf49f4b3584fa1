// Loaded by the generated service worker (vite.config.ts, workbox importScripts).
// API calls and stored files go straight to the network, never through the worker (Chromium's
// static routing, InstallEvent.addRoutes; other browsers have no such call and skip this). The
// worker answers none of them (only the app shell is cached), yet without this every call would
// first wait for the worker to start and hand it back: time on a phone, and a second path to the
// network that the page's own view of "offline" does not cover.
self.addEventListener('install', (event) => {
  if (typeof event.addRoutes !== 'function') return;
  const rules = ['/api/*', '/files/*'].map((pathname) => ({
    condition: { urlPattern: typeof URLPattern === 'function' ? new URLPattern({ pathname }) : pathname },
    source: 'network',
  }));
  // A browser that refuses the rules still installs the worker: it then passes these calls on.
  event.waitUntil(Promise.resolve(event.addRoutes(rules)).catch(() => undefined));
});
