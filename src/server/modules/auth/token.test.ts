import { afterEach, describe, expect, it, vi } from 'vitest';
import { signToken, verifyToken } from './token';

const SECRET = 'a-test-secret-that-is-long-enough-123456';
const claims = { userId: 7, companyId: 3, roleId: 2, sessionVersion: 0 };

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
    const altered = `${h}.${p}.${s.slice(0, -2)}${s.endsWith('A') ? 'B' : 'A'}${s.slice(-1)}`;
    expect(await verifyToken(altered, SECRET)).toEqual({ ok: false, expired: false });
  });
});
