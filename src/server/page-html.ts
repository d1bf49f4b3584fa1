import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** One page's HTML, compressed once at start the way the build compresses index.html. */
export interface PageHtml {
  plain: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** Where the build lists each lazy page's files (vite.config.ts `pagePreloads()`). */
export const PAGE_PRELOADS_FILE = '.vite/page-preloads.json';

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The tags that start a lazy page's files as the HTML is read (decision 064): its chunks as
 * module preloads, its stylesheet as a preload (a `<link rel=stylesheet>` here would hold the first
 * paint of every page opened at that address). `crossorigin` as Vite's own preloads, so the
 * browser's later import() of the same file finds the preloaded one. `fetchpriority=low`: the
 * app's own files (index.html's preloads) and the job's request, which the page waits for too,
 * go first on HTTP/1.1's six connections.
 */
export function preloadTags(files: string[]): string {
  return files
    .map((f) =>
      f.endsWith('.css')
        ? `<link rel="preload" as="style" crossorigin fetchpriority="low" href="${escapeAttr(f)}">`
        : `<link rel="modulepreload" crossorigin fetchpriority="low" href="${escapeAttr(f)}">`,
    )
    .join('\n    ');
}

/**
 * For each page path the build listed, index.html with that page's preloads at the end of its
 * head (after the app's own, which the browser then asks for first). None when the build wrote no
 * list (an older build, or API tests): every path gets the plain index.html.
 */
export function pagesWithPreloads(webDir: string): Map<string, PageHtml> {
  const pages = new Map<string, PageHtml>();
  const listFile = path.join(webDir, PAGE_PRELOADS_FILE);
  if (!existsSync(listFile)) return pages;
  const html = readFileSync(path.join(webDir, 'index.html'), 'utf8');
  if (!html.includes('</head>')) throw new Error(`${webDir}/index.html has no </head> to put the page preloads before`);
  const lists = JSON.parse(readFileSync(listFile, 'utf8')) as Record<string, string[]>;
  for (const [pagePath, files] of Object.entries(lists)) {
    const plain = Buffer.from(html.replace('</head>', `  ${preloadTags(files)}\n  </head>`));
    pages.set(pagePath, {
      plain,
      br: brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: plain.length } }),
      gzip: gzipSync(plain, { level: 9 }),
    });
  }
  return pages;
}

/** The encodings the request accepts (q > 0), lower-cased. */
function accepted(header: string | string[] | undefined): Set<string> {
  const out = new Set<string>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) out.add(name);
  }
  return out;
}

/** Sends a page's HTML as the static index.html is sent: br, else gzip, else plain; never kept (a release changes the files it names). */
export function sendPageHtml(request: FastifyRequest, reply: FastifyReply, page: PageHtml) {
  const encodings = accepted(request.headers['accept-encoding']);
  const encoding = encodings.has('br') ? 'br' : encodings.has('gzip') ? 'gzip' : null;
  reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.plain);
}
