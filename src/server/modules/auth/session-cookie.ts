import type { FastifyReply, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import { SESSION_COOKIE } from '../../../shared/constants';

/**
 * The session cookie (docs/product/sessions-and-safety.md §1, hardened): set and cleared by the server only. HttpOnly, so a
 * script injected into a page cannot read the token; SameSite=Strict; Secure when the request
 * came over HTTPS (behind a proxy, as X-Forwarded-Proto says when TRUST_PROXY trusts it); and
 * no Domain attribute, so the browser sends it to this exact host only, never to sibling
 * sub-domains of the parent domain.
 */
function options(request: FastifyRequest) {
  return { path: '/', httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https' } as const;
}

/**
 * Earlier versions wrote the cookie from the page with Domain=<parent domain>. Such a cookie
 * would be sent beside the new one; it is expired whenever the server sets or clears its own.
 */
function legacyDomain(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  if (host === 'localhost' || /^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('[')) return undefined;
  const parts = host.split('.');
  if (parts.length < 2) return undefined;
  return parts.length === 2 ? `.${host}` : `.${parts.slice(1).join('.')}`;
}

function clearLegacy(request: FastifyRequest, reply: FastifyReply) {
  const domain = legacyDomain(request.hostname);
  if (domain) reply.clearCookie(SESSION_COOKIE, { path: '/', domain });
}

/** Sets the cookie to `token`, living exactly as long as the token. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
  const { exp } = decodeJwt(token);
  clearLegacy(request, reply);
  reply.setCookie(SESSION_COOKIE, token, { ...options(request), maxAge: Math.max(0, exp! - Math.floor(Date.now() / 1000)) });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  clearLegacy(request, reply);
  reply.clearCookie(SESSION_COOKIE, options(request));
}
