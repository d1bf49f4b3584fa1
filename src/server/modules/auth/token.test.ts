import { afterEach, describe, expect, it, vi } from 'vitest';
import { signToken, verifyToken } from './token';

const SECRET = 'a-test-secret-that-is-long-enough-123456';
const claims = { userId: 7, companyId: 3, roleId: 2, sessionId: '6f1c2a7e-3b4d-4e5f-8a9b-0c1d2e3f4a5b' };

describe('session tokens', () => {
  afterEach(() => vi.useRealTimers());

  it('a verified token is accepted again until it expires, then refused as expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2027-01-01T00:00:00Z'));
    const token = await signToken(claims, SECRET, '60s');
    expect(await verifyToken(token, SECRET)).toEqual({ ok: true, claims });
    vi.setSystemTime(new Date('2027-01-01T00:00:30Z'));
    expect(await verifyToken(token, SECRET)).toEqual({ ok: true, claims });
    vi.setSystemTime(new Date('2027-01-01T00:01:01Z'));
    expect(await verifyToken(token, SECRET)).toEqual({ ok: false, expired: true });
  });

  it('the same token under another secret, or altered by one character, is refused', async () => {
    const token = await signToken(claims, SECRET, '1h');
    expect((await verifyToken(token, SECRET)).ok).toBe(true);
    expect(await verifyToken(token, `${SECRET}x`)).toEqual({ ok: false, expired: false });
    const [h, p, s] = token.split('.');
    // The second-to-last character is changed (the last one carries padding bits only in part).
    const altered = `${h}.${p}.${s.slice(0, -2)}${s.at(-2) === 'A' ? 'B' : 'A'}${s.slice(-1)}`;
    expect(await verifyToken(altered, SECRET)).toEqual({ ok: false, expired: false });
  });
});

describe('tokens from before sessions were rows', () => {
  it('a token carrying a session version and no session id reads as an expired session (sign in again)', async () => {
    const { SignJWT } = await import('jose');
    const old = await new SignJWT({ userId: 7, companyId: 3, roleId: 2, sv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    expect(await verifyToken(old, SECRET)).toEqual({ ok: false, expired: true });
  });
});
