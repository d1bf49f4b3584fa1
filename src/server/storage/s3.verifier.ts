import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import type { S3Client } from '@aws-sdk/client-s3';

/**
 * s3rver stores objects but does not check SigV4 signatures ("V4 signatures have incomplete
 * support": it accepts any). For the storage tests this small proxy sits in front of it and
 * does what S3 does with a presigned URL before passing the request on: recompute the
 * signature from the request as it arrived (method, path, query and the signed headers, e.g.
 * Content-Type, Content-Length, x-amz-acl) and refuse a mismatch or an expired URL with 403.
 * Requests signed in the Authorization header (the SDK's own calls) are passed through.
 * It also does what S3 does with a conditional write, which s3rver ignores: a PUT carrying
 * `If-None-Match: *` to a key that already holds an object answers 412 PreconditionFailed.
 */
export async function startSigV4Verifier(target: { host: string; port: number }, client: () => S3Client): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    verify(req, client())
      .then(async (problem) => problem ?? (await precondition(req, target)))
      .then((problem) => {
        if (problem) {
          req.resume();
          res.writeHead(problem.status ?? 403, { 'content-type': 'application/xml' });
          res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${problem.code}</Code><Message>${problem.message}</Message></Error>`);
          return;
        }
        const upstream = http.request({ host: target.host, port: target.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        });
        upstream.on('error', (err) => {
          res.writeHead(502);
          res.end(String(err));
        });
        req.pipe(upstream);
      })
      .catch((err) => {
        res.writeHead(500);
        res.end(String(err));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** S3's answer to `If-None-Match: *` on a PUT: refused when the object exists. */
async function precondition(req: http.IncomingMessage, target: { host: string; port: number }): Promise<Problem | null> {
  if (req.method !== 'PUT' || req.headers['if-none-match'] !== '*') return null;
  const path = new URL(req.url ?? '/', 'http://placeholder').pathname;
  // s3rver does not check signatures, so an unsigned HEAD is enough to ask.
  const status = await new Promise<number>((resolve, reject) => {
    const head = http.request({ host: target.host, port: target.port, method: 'HEAD', path }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    head.on('error', reject);
    head.end();
  });
  return status === 200 ? { status: 412, code: 'PreconditionFailed', message: 'At least one of the pre-conditions you specified did not hold' } : null;
}

interface Problem {
  status?: number;
  code: string;
  message: string;
}

const AUTH_PARAMS = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Signature', 'X-Amz-Content-Sha256'];

async function verify(req: http.IncomingMessage, client: S3Client): Promise<Problem | null> {
  const url = new URL(req.url ?? '/', 'http://placeholder');
  const q = url.searchParams;
  if (!q.has('X-Amz-Signature')) return null;
  const given = q.get('X-Amz-Signature')!;
  const dateText = q.get('X-Amz-Date') ?? '';
  const expiresIn = Number(q.get('X-Amz-Expires'));
  const signedHeaders = (q.get('X-Amz-SignedHeaders') ?? '').split(';').filter(Boolean);
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(dateText);
  if (!m || !Number.isFinite(expiresIn)) return { code: 'AuthorizationQueryParametersError', message: 'bad date or expiry' };
  const signingDate = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
  if (Date.now() > signingDate.getTime() + expiresIn * 1000) return { code: 'AccessDenied', message: 'Request has expired' };

  const query: Record<string, string> = {};
  for (const [k, v] of q) if (!AUTH_PARAMS.includes(k)) query[k] = v;
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    const value = req.headers[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const [hostname, port] = (req.headers.host ?? '').split(':');
  const presigner = new S3RequestPresigner({ ...client.config });
  const presigned = await presigner.presign(
    { method: req.method ?? 'GET', protocol: 'http:', hostname, port: port ? Number(port) : undefined, path: decodeURIComponent(url.pathname), query, headers },
    {
      signingDate,
      expiresIn,
      signableHeaders: new Set(signedHeaders),
      unhoistableHeaders: new Set(signedHeaders.filter((h) => h.startsWith('x-amz-'))),
    },
  );
  const expected = presigned.query?.['X-Amz-Signature'];
  if (expected !== given || presigned.query?.['X-Amz-SignedHeaders'] !== q.get('X-Amz-SignedHeaders')) {
    return { code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' };
  }
  return null;
}
