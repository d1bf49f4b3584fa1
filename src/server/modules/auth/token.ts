import { SignJWT, jwtVerify, errors } from 'jose';

/**
 * Claims of the session token (docs/product/platform.md §1, sessions-and-safety.md §4): who, which company, which role, and the id of
 * its session row (`sid`). The auth hook reads that row on every request: a session ended in the
 * database (logout, "everywhere", a password reset) refuses its token at once.
 */
export interface TokenClaims {
  userId: number;
  companyId: number;
  roleId: number;
  sessionId: string;
}

/** A session id as crypto.randomUUID makes it; anything else never reaches the uuid column. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The HMAC key of a secret, imported once: jose would import raw key bytes again on every
 * verification, which cost more CPU per request than the rest of the session check.
 */
const keys = new Map<string, Promise<CryptoKey>>();
function key(secret: string): Promise<CryptoKey> {
  let k = keys.get(secret);
  if (!k) {
    k = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    keys.set(secret, k);
  }
  return k;
}

export async function signToken({ sessionId, ...claims }: TokenClaims, secret: string, expiresIn: string): Promise<string> {
  return new SignJWT({ ...claims, sid: sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(await key(secret));
}

export type VerifyResult = { ok: true; claims: TokenClaims } | { ok: false; expired: boolean };

/**
 * Tokens already verified (by exact text, under the secret that verified them), until they
 * expire: a browser sends the same token with every request, and WebCrypto's HMAC is the
 * costliest step of a cached page. A token string verified once stays valid until its `exp`, so
 * nothing is trusted that was not checked; the session row and its user are still read
 * on every request (plugins/auth.ts), so a revoked token is refused even when it is cached here.
 */
const verified = new Map<string, { secret: string; claims: TokenClaims; expiresAt: number }>();
const VERIFIED_MAX = 10_000;

export async function verifyToken(token: string, secret: string): Promise<VerifyResult> {
  const hit = verified.get(token);
  if (hit?.secret === secret && Date.now() < hit.expiresAt) return { ok: true, claims: hit.claims };
  try {
    // A token without `exp` would be valid for ever: refuse it.
    const { payload } = await jwtVerify(token, await key(secret), { algorithms: ['HS256'], requiredClaims: ['exp'] });
    const { userId, companyId, roleId, sid: sessionId } = payload as Record<string, unknown>;
    if (![userId, companyId, roleId].every((v) => Number.isInteger(v))) return { ok: false, expired: false };
    // A token of the versions before sessions were rows (it carries `sv`, no `sid`): its session
    // no longer exists, so it is an expired session, and the person signs in again.
    if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) return { ok: false, expired: true };
    const claims = { userId, companyId, roleId, sessionId } as TokenClaims;
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, { secret, claims, expiresAt: payload.exp! * 1000 });
    return { ok: true, claims };
  } catch (err) {
    return { ok: false, expired: err instanceof errors.JWTExpired };
  }
}
