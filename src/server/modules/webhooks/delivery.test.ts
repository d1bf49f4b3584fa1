import { describe, expect, it } from 'vitest';
import { isRefusedAddress } from './endpoint-address';
import { newSecret, RETRY_DELAYS_MS, signature } from './delivery';

describe('Standard Webhooks signing', () => {
  it("reproduces the specification's published test vector", () => {
    expect(signature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('a secret is whsec_ + base64 of 32 random bytes, new each time', () => {
    const a = newSecret();
    expect(a).toMatch(/^whsec_/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(newSecret()).not.toBe(a);
  });
});

describe('retry schedule', () => {
  it('at least 6 tries, with growing waits, the last 24 h after the first', () => {
    expect(RETRY_DELAYS_MS.length + 1).toBeGreaterThanOrEqual(6);
    expect(RETRY_DELAYS_MS.slice(0, 6)).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]);
    expect(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)).toBe(24 * 3600_000);
  });
});

describe('addresses a webhook may not go to', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '::1',
    '::',
    'fd00::1',
    'fc00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    'not an address',
  ])('%s is refused', (a) => expect(isRefusedAddress(a)).toBe(true));

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:2800:220:1:248:1893:25c8:1946'])('%s is allowed', (a) =>
    expect(isRefusedAddress(a)).toBe(false),
  );
});
