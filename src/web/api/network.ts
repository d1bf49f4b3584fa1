import { API_PREFIX } from '../../shared/constants';

/**
 * Whether our server can be reached, as the app knows it (docs/product/field-mode.md §5 "Offline").
 *
 * `navigator.onLine` alone is not enough: it says the phone has *a* network, not that ours
 * answers (one bar at a pole, a captive portal), and Chromium 150 no longer keeps its offline
 * emulation's `onLine` across a reload. So an API call that cannot reach the server marks the app
 * offline, any answer (whatever its status) marks it online, the browser's `offline` / `online`
 * events count too, and while offline a cheap probe (GET /health) looks for the way back, every
 * 2 s at first, then less often (at most every 15 s).
 */
export interface Network {
  isOnline(): boolean;
  /** Called with every change; returns the unsubscribe. */
  subscribe(listener: (online: boolean) => void): () => void;
  /** An API call got an answer. */
  reached(): void;
  /** An API call could not reach the server. */
  unreachable(): void;
}

export const PROBE_FIRST_MS = 2_000;
export const PROBE_MAX_MS = 15_000;

export function createNetwork(opts: {
  initiallyOnline: boolean;
  /** Resolves true when the server answered. */
  probe: () => Promise<boolean>;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}): Network {
  const setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = opts.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const listeners = new Set<(online: boolean) => void>();
  let online = opts.initiallyOnline;
  let timer: unknown = null;
  let delay = PROBE_FIRST_MS;

  const stopProbing = () => {
    if (timer !== null) clearTimer(timer);
    timer = null;
    delay = PROBE_FIRST_MS;
  };
  const probeLater = () => {
    if (timer !== null) return;
    timer = setTimer(() => {
      timer = null;
      void opts.probe().then(
        (ok) => (ok ? set(true) : again()),
        () => again(),
      );
    }, delay);
  };
  const again = () => {
    if (online) return;
    delay = Math.min(PROBE_MAX_MS, Math.round(delay * 1.5));
    probeLater();
  };
  function set(next: boolean) {
    if (next) stopProbing();
    else probeLater();
    if (next === online) return;
    online = next;
    listeners.forEach((l) => l(online));
  }
  if (!online) probeLater();

  return {
    isOnline: () => online,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reached: () => set(true),
    unreachable: () => set(false),
  };
}

async function probeHealth(): Promise<boolean> {
  try {
    await fetch(`${API_PREFIX}/health`, { cache: 'no-store', credentials: 'omit' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The page's one network state: the API client (client.ts, session.ts, upload.ts) reports to it,
 * the outbox and TanStack listen. It lives with the fetch client, at the bottom of the web app's
 * layers, so the client never imports offline/ (docs/decisions/041-modules-and-layers-depend-one-way.md).
 */
export const network: Network = createNetwork({
  initiallyOnline: typeof navigator === 'undefined' ? true : navigator.onLine,
  probe: probeHealth,
});

if (typeof window !== 'undefined') {
  window.addEventListener('offline', () => network.unreachable());
  window.addEventListener('online', () => network.reached());
}
