import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { buildSync } from 'esbuild';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { PAGE_PRELOADS_FILE, type PagePreloads } from './src/shared/page-preloads';

/**
 * Writes a .br and a .gz beside every text asset of the build, compressed once at build time at
 * the highest levels; the server sends them to clients that accept them (@fastify/static
 * `preCompressed`). On a phone the first load is then ~5× fewer bytes, with no CPU per request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'linecrew-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json)$/.test(file)) continue;
        const raw = readFileSync(file);
        if (raw.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }));
        writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
      }
    },
  };
}

/**
 * Mantine's ScrollArea imports one helper from @floating-ui/react, useMergeRefs, to merge three
 * refs. That one import puts floating-ui's whole module (~15 KB gzip, what Popover, Select and
 * Tooltip use of it) in every page with a ScrollArea — and Mantine's Table has one
 * (Table.ScrollContainer), so the jobs list carried it (the page weights of docs/product/scale.md §3). Mantine's own
 * useMergedRef does the same job; the build swaps it in. If a Mantine release changes that
 * import, the build stops here rather than quietly growing the first load again.
 */
function scrollAreaWithoutFloatingUi(): Plugin {
  const FROM = 'import { useMergeRefs } from "@floating-ui/react";';
  const TO = 'import { useMergedRef } from "@mantine/hooks";\nconst useMergeRefs = (refs) => useMergedRef(...refs);';
  return {
    name: 'linecrew-scrollarea-without-floating-ui',
    enforce: 'pre',
    transform(code, id) {
      if (!id.replace(/\\/g, '/').endsWith('@mantine/core/esm/components/ScrollArea/ScrollArea.mjs')) return null;
      if (code.includes(FROM)) return { code: code.replace(FROM, TO), map: null };
      if (code.includes('@floating-ui/')) this.error('ScrollArea.mjs imports floating-ui differently now: update scrollAreaWithoutFloatingUi() in vite.config.ts');
      return null;
    },
  };
}

/**
 * Installable and opens offline (docs/product/field-mode.md §3): a web manifest and a Workbox service worker at
 * /sw.js that precaches the app shell and the hashed assets. Only the shell: the data a crew
 * needs offline lives in IndexedDB (src/web/offline/), never in a cache of API replies that could
 * hand one user's data to another. `registerType: 'prompt'` keeps a new release waiting until the
 * user chooses Reload ("A new version is ready", app/UpdatePrompt.tsx), so an edit in progress
 * is never lost to a reload they did not ask for.
 */
const pwa = VitePWA({
  registerType: 'prompt',
  injectRegister: null,
  filename: 'sw.js',
  manifestFilename: 'manifest.webmanifest',
  includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
  manifest: {
    name: 'Linecrew',
    short_name: 'Linecrew',
    description: 'Jobs, tickets and crews of a utility line contractor',
    start_url: '/work',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#1864ab',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
    // Every page path is the React app: offline, a navigation gets the cached index.html. API
    // calls and stored files are never answered from the cache.
    navigateFallback: '/index.html',
    navigateFallbackDenylist: [/^\/api\//, /^\/files\//],
    // Where the browser allows it they skip the worker altogether (public/sw-network-routes.js).
    importScripts: ['/sw-network-routes.js'],
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
  },
});

/** What `bundle` holds of a chunk: its file, static imports and the stylesheets it brings. */
interface BuiltChunk {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/** A chunk's file and every file it imports statically, with their stylesheets (what its dynamic import() fetches). */
function closure(bundle: Record<string, unknown>, fileName: string, into = new Set<string>()): Set<string> {
  const chunk = bundle[fileName] as BuiltChunk | undefined;
  if (!chunk || chunk.type !== 'chunk' || into.has(fileName)) return into;
  into.add(fileName);
  for (const css of chunk.viteMetadata?.importedCss ?? []) into.add(css);
  for (const imported of chunk.imports) closure(bundle, imported, into);
  return into;
}

/**
 * The files a lazy page needs beyond the entry's (which index.html preloads already): the chunk
 * whose module ends with `moduleEnd` and everything it imports statically, as absolute URLs.
 */
function lazyFiles(bundle: Record<string, unknown>, moduleEnd: string): string[] {
  const chunks = Object.values(bundle) as BuiltChunk[];
  const entry = chunks.find((c) => c.type === 'chunk' && c.isEntry);
  const page = chunks.find((c) => c.type === 'chunk' && c.facadeModuleId?.replace(/\\/g, '/').endsWith(moduleEnd));
  if (!entry || !page) throw new Error(`pagePreloads(): no chunk for ${moduleEnd}: update vite.config.ts`);
  const first = closure(bundle, entry.fileName);
  return [...closure(bundle, page.fileName)].filter((f) => !first.has(f)).map((f) => `/${f}`);
}

/**
 * `.vite/page-preloads.json`: for a page path, the files of its lazy page that index.html does
 * not preload already (`files`), and the map's (`map`, for a device that shows the job's tickets on
 * a map). The server writes the list into the HTML it sends for that path
 * (src/server/page-html.ts) and the early script (src/web/early.ts) starts them, right after the
 * job's own request, instead of once the app's first chunk has arrived and run (decision 064).
 * Only the job page (its ~45 chunks were asked for ~0.8 s into a cold load). Not
 * precached by the service worker (its globs take no .json): it is the server's, not the browser's.
 */
function pagePreloads(): Plugin {
  return {
    name: 'linecrew-page-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const files = lazyFiles(bundle, '/src/web/app/JobRoute.tsx');
      const page = new Set(files);
      const map = lazyFiles(bundle, '/src/web/components/map/TicketMap.tsx').filter((f) => !page.has(f));
      const lists: Record<string, PagePreloads> = { '/job': { files, map } };
      this.emitFile({ type: 'asset', fileName: PAGE_PRELOADS_FILE, source: JSON.stringify(lists, null, 1) });
    },
  };
}

/**
 * A tiny script of its own (src/web/early.ts → api/earlyJob.ts): on a page opened at /job?id=…
 * it sends the job's request before the app's own chunk has arrived and run (decision 060).
 * Bundled apart with esbuild, whole (its few constants included), not as a second entry of this
 * build, which would make it import a shared chunk: one more request, queued behind the app's
 * chunks on the browser's six connections. Put first in index.html as an async module script:
 * it runs as soon as it arrives, waiting neither for the app's chunk nor for the stylesheet, as
 * a deferred script would. Build only: under `vite` dev the router's own prefetch asks for the job.
 */
function earlyJob(): Plugin {
  let entry = '';
  let fileName = '';
  return {
    name: 'linecrew-early-job',
    apply: 'build',
    configResolved(config) {
      entry = path.resolve(config.root, 'early.ts');
    },
    buildStart() {
      const out = buildSync({ entryPoints: [entry], bundle: true, format: 'esm', minify: true, target: 'es2022', write: false, logLevel: 'silent' });
      const code = out.outputFiles[0].text;
      fileName = `assets/early-${createHash('sha256').update(code).digest('hex').slice(0, 10)}.js`;
      this.emitFile({ type: 'asset', fileName, source: code });
    },
    transformIndexHtml: {
      order: 'post',
      handler: () => [{ tag: 'script', attrs: { type: 'module', async: true, src: `/${fileName}` }, injectTo: 'head-prepend' }],
    },
  };
}

// The web app lives in src/web and is built to dist/web, which the server serves.
export default defineConfig({
  root: 'src/web',
  plugins: [scrollAreaWithoutFloatingUi(), react(), earlyJob(), pagePreloads(), pwa, precompress()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
  },
  server: {
    port: 5173,
    // Only the API prefix: '/api' alone would also catch the app's own src/web/api/*.ts modules.
    proxy: { '/api/v1': 'http://localhost:3000', '/files': 'http://localhost:3000' },
  },
});
