import { SignJWT, jwtVerify, errors } from 'jose';

/**
 * Claims of the session token (DESIGN §1): who, which company, which role, and the user's
 * session version when it was issued (a password change or logout raises the version in the
 * database, and the auth hook refuses tokens carrying an older one).
 */
export interface TokenClaims {
  userId: number;
  companyId: number;
  roleId: number;
  sessionVersion: number;
}

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

export async function signToken({ sessionVersion, ...claims }: TokenClaims, secret: string, expiresIn: string): Promise<string> {
  return new SignJWT({ ...claims, sv: sessionVersion })
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
 * nothing is trusted that was not checked; the user row, with its session version, is still read
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
    const { userId, companyId, roleId, sv: sessionVersion } = payload as Record<string, unknown>;
    if (![userId, companyId, roleId, sessionVersion].every((v) => Number.isInteger(v))) return { ok: false, expired: false };
    const claims = { userId, companyId, roleId, sessionVersion } as TokenClaims;
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
    verified.set(token, { secret, claims, expiresAt: payload.exp! * 1000 });
    return { ok: true, claims };
  } catch (err) {
    return { ok: false, expired: err instanceof errors.JWTExpired };
  }
}
