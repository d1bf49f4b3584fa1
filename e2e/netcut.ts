import net from 'node:net';
import { test as base } from './fixtures';

/**
 * A TCP proxy in front of the e2e server that a test can cut, as a road without signal cuts a
 * phone. `context.setOffline` lets some requests through (service-worker fetches among them) and
 * sets `navigator.onLine`; a cut here leaves `navigator.onLine` true and resets every connection,
 * which is what a phone with one bar and no data sees. Pages must use `net.baseURL` (its own
 * origin: IndexedDB, the service worker and cookies are those of the proxy's port).
 */
export interface NetCut {
  /** `http://localhost:<proxy port>`: open pages here, not at the config's baseURL. */
  baseURL: string;
  /** Resets every open connection and refuses new ones until `restore()`. */
  cut(): void;
  restore(): void;
  readonly isCut: boolean;
}

export async function startNetCut(targetPort: number): Promise<NetCut & { close(): Promise<void> }> {
  let isCut = false;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (isCut) {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(targetPort, '127.0.0.1');
    open.add(client);
    open.add(upstream);
    const drop = () => {
      open.delete(client);
      open.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    baseURL: `http://localhost:${port}`,
    get isCut() {
      return isCut;
    },
    cut() {
      isCut = true;
      for (const socket of open) socket.resetAndDestroy();
      open.clear();
    },
    restore() {
      isCut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The e2e server's port, as playwright.config.ts sets it. */
const serverPort = Number(process.env.E2E_PORT ?? 3210);

/**
 * `test` with a `net` fixture: a proxy of its own per test, and the page's baseURL moved onto it,
 * so `page.goto('/work')` goes through the cuttable link.
 */
export const test = base.extend<{ net: NetCut }>({
  // Playwright reads a fixture's dependencies from its first parameter's pattern; this one has none.
  // eslint-disable-next-line no-empty-pattern
  net: async ({}, use) => {
    const proxy = await startNetCut(serverPort);
    await use(proxy);
    await proxy.close();
  },
  baseURL: async ({ net }, use) => {
    await use(net.baseURL);
  },
});
