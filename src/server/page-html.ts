import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PAGE_PRELOADS_FILE, PRELOADS_ID, type PagePreloads } from '../shared/page-preloads';
import { preferredEncoding } from './plugins/reply-cache';

/** One page's HTML, compressed once at start the way the build compresses index.html. */
export interface PageHtml {
  plain: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * The page's file list as a data block (`type="application/json"`: never run, so the
 * Content-Security-Policy, which allows no inline script, has nothing to say), first in the head:
 * the early script, which comes next, has it in the document when it runs. The script starts these
 * files after the job's own request (decision 064); `<link rel=modulepreload>` tags written here
 * would be asked for by the preload scanner before that request, which then waited for one of
 * HTTP/1.1's six connections behind ~65 files, and at `fetchpriority=low` the browser held the
 * last of them back until ~2.5 s into a load (waterfalls at load ~6).
 */
export function preloadsBlock(preloads: PagePreloads): string {
  // `<` escaped: nothing in the list can end the block.
  const json = JSON.stringify({ files: preloads.files, map: preloads.map }).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${PRELOADS_ID}">${json}</script>`;
}

/**
 * For each page path the build listed, index.html with that page's list first in its head. None
 * when the build wrote no list (an older build, or API tests): every path gets the plain index.html.
 */
export function pagesWithPreloads(webDir: string): Map<string, PageHtml> {
  const pages = new Map<string, PageHtml>();
  const listFile = path.join(webDir, PAGE_PRELOADS_FILE);
  if (!existsSync(listFile)) return pages;
  const html = readFileSync(path.join(webDir, 'index.html'), 'utf8');
  if (!/<head>/.test(html)) throw new Error(`${webDir}/index.html has no <head> to put the page preloads in`);
  const lists = JSON.parse(readFileSync(listFile, 'utf8')) as Record<string, PagePreloads>;
  for (const [pagePath, preloads] of Object.entries(lists)) {
    const plain = Buffer.from(html.replace('<head>', `<head>\n    ${preloadsBlock(preloads)}`));
    pages.set(pagePath, {
      plain,
      br: brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: plain.length } }),
      gzip: gzipSync(plain, { level: 9 }),
    });
  }
  return pages;
}

/** Sends a page's HTML as the static index.html is sent: br, else gzip, else plain; never kept (a release changes the files it names). */
export function sendPageHtml(request: FastifyRequest, reply: FastifyReply, page: PageHtml) {
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.plain);
}
