import type { FastifyReply, FastifyRequest } from 'fastify';
import { matchesEtag, preferredEncoding, type JobReply } from '../modules/jobs/job-replies';

/**
 * Sends a reply kept as bytes (modules/jobs/job-replies.ts: the job page, the jobs list, a job's
 * production): its ETag, 304 when the client already holds it, else the JSON compressed as the
 * client accepts. The route's response schema documents the reply; the API tests check every
 * reply against it, as Fastify does not serialise bytes.
 */
export async function sendCachedReply(request: FastifyRequest, reply: FastifyReply, cached: JobReply): Promise<FastifyReply> {
  // no-cache: a browser may keep it but must ask again (304 when unchanged).
  reply.header('etag', cached.etag).header('cache-control', 'private, no-cache').header('vary', 'Accept-Encoding');
  if (matchesEtag(request.headers['if-none-match'], cached.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  if (!encoding) return reply.send(cached.json);
  return reply.header('content-encoding', encoding).send(await cached.encoded(encoding));
}
