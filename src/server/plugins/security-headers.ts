import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';
import type { Storage } from '../storage/storage';

/**
 * The origin files are read from and uploaded to when it is not ours (an S3 bucket), so the
 * policy lets images show and signed PUTs go there; null for the local store (/files on this host).
 */
function storageOrigin(storage: Storage): string | null {
  const probe = 'http://this-app.invalid';
  const origin = new URL(storage.urlFor('probe'), probe).origin;
  return origin === probe ? null : origin;
}

/**
 * Security headers on every reply, HTML, API and files alike (helmet):
 * - a Content-Security-Policy whose scripts come only from this origin (the Vite build has no
 *   inline script), styles from this origin plus inline styles (Mantine sets style attributes),
 *   images and fetches from here and the file store, images also from the base map's tile server
 *   (MAP_STYLE_URL: its origin, or `*.host` when the host has {s}), and no framing
 *   (`frame-ancestors 'none'`);
 * - `Referrer-Policy: no-referrer`, so reset tokens and signed URLs never leak through Referer;
 * - `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`;
 * - HSTS only when the request came over TLS (directly, or through the trusted proxy's
 *   X-Forwarded-Proto): a plain-HTTP local run must not pin browsers to HTTPS.
 *
 * helmet's middleware is built once, here, and only sets the headers it computed then. The
 * @fastify/helmet plugin built it anew on every request, parsing the whole policy each time:
 * ~10 µs of every request (0.3 µs built once), measured on this policy.
 */
export async function registerSecurityHeaders(app: FastifyInstance, storage: Storage, mapTileSource: string) {
  const files = storageOrigin(storage);
  const withFiles = (...sources: string[]) => (files ? [...sources, files] : sources);
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: withFiles("'self'", 'data:', 'blob:', mapTileSource),
        connectSrc: withFiles("'self'"),
        fontSrc: ["'self'", 'data:'],
        mediaSrc: withFiles("'self'", 'blob:'),
        frameSrc: withFiles("'self'"),
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    // Opened documents live on the file store's origin when it is a bucket.
    crossOriginResourcePolicy: { policy: files ? 'cross-origin' : 'same-origin' },
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    // helmet ≥ 8.1 throws rather than passing an error on: rethrow anything it does pass.
    setHeaders(request.raw, reply.raw, (err) => {
      if (err) throw err;
    });
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });
}
