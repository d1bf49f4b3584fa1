import { SignJWT, jwtVerify, errors } from 'jose';

/** Claims of the session token (DESIGN §1): who, which company, which role. */
export interface TokenClaims {
  userId: number;
  companyId: number;
  roleId: number;
}

const key = (secret: string) => new TextEncoder().encode(secret);

export async function signToken(claims: TokenClaims, secret: string, expiresIn: string): Promise<string> {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(key(secret));
}

export type VerifyResult = { ok: true; claims: TokenClaims } | { ok: false; expired: boolean };

export async function verifyToken(token: string, secret: string): Promise<VerifyResult> {
  try {
    const { payload } = await jwtVerify(token, key(secret), { algorithms: ['HS256'] });
    const { userId, companyId, roleId } = payload as Record<string, unknown>;
    if (![userId, companyId, roleId].every((v) => Number.isInteger(v))) return { ok: false, expired: false };
    return { ok: true, claims: { userId, companyId, roleId } as TokenClaims };
  } catch (err) {
    return { ok: false, expired: err instanceof errors.JWTExpired };
  }
}
