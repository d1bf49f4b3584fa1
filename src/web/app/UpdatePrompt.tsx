import { lazy, Suspense, useEffect, useState } from 'react';
import { onUpdateReady } from './serviceWorker';

// Loaded when a release is waiting, not with every page: Mantine's Notification is in no page's
// first paint (docs/benchmarks.md "Initial JavaScript of /work"). Its chunk is in the running
// release's precache, so it loads offline too.
const UpdateNotice = lazy(() => import('./UpdateNotice'));

/**
 * A new release is installed beside the running one (service worker waiting): "A new version is
 * ready" with Reload. Never reloaded without asking: a crew may be typing a note. Checked again
 * every hour while the app stays open (serviceWorker.ts), so an app left open on a phone is never
 * stale forever.
 */
export function UpdatePrompt() {
  const [activate, setActivate] = useState<(() => void) | null>(null);
  useEffect(() => onUpdateReady((go) => setActivate(() => go)), []);
  if (!activate) return null;
  return (
    <Suspense fallback={null}>
      <UpdateNotice onReload={activate} onClose={() => setActivate(null)} />
    </Suspense>
  );
}
