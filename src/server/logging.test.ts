import { describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { createTestApp } from './test/harness';
import { loggerOptions, logSerializers, redactText, redactUrl } from './logging';

describe('redactUrl', () => {
  it('keeps the path and the parameter names, drops every value', () => {
    expect(redactUrl('/resetPassword?resetToken=abc123&userId=7')).toBe('/resetPassword?resetToken=[redacted]&userId=[redacted]');
    expect(redactUrl('/files/1/doc/x/a.pdf?ct=application%2Fpdf&max=10&exp=99&sig=SIGNATURE')).toBe(
      '/files/1/doc/x/a.pdf?ct=[redacted]&max=[redacted]&exp=[redacted]&sig=[redacted]',
    );
    expect(redactUrl('/api/v1/jobs')).toBe('/api/v1/jobs');
    expect(redactUrl('/x?flag&y=1#frag')).toBe('/x?flag&y=[redacted]');
  });

  it('redacts query strings quoted inside error text', () => {
    const text = 'GET https://bucket.s3/x?X-Amz-Signature=deadbeef&X-Amz-Credential=AKIA failed\n  at fetch (/a.js:1:2)';
    const out = redactText(text);
    expect(out).not.toContain('deadbeef');
    expect(out).not.toContain('AKIA');
    expect(out).toContain('X-Amz-Signature=[redacted]');
    expect(out).toContain('at fetch (/a.js:1:2)');
  });

  it('the error serializer keeps codes and drops values quoted by the database', () => {
    const err = Object.assign(new Error('bad link /resetPassword?resetToken=s3cret&userId=1'), {
      code: '23505',
      detail: 'Key (email)=(pat@example.com) already exists.',
    });
    const out = JSON.stringify(logSerializers.err(err));
    expect(out).toContain('23505');
    expect(out).not.toContain('s3cret');
    expect(out).not.toContain('pat@example.com');
  });
});

describe('the server log', () => {
  it('never carries reset tokens, upload signatures or authorization headers', async () => {
    const t = await createTestApp();
    const lines: string[] = [];
    const app = await buildApp({ ...t.ctx, logger: { ...loggerOptions('info'), stream: { write: (line: string) => void lines.push(line) } } });
    await app.ready();
    const token = await t.login('admin@example.com');
    try {
      await app.inject({ method: 'GET', url: '/resetPassword?resetToken=RESET-SECRET-abc&userId=1' });
      await app.inject({ method: 'PUT', url: '/files/1/doc/abc/a.pdf?ct=application%2Fpdf&max=10&exp=9999999999&sig=SIG-SECRET-xyz', payload: 'x' });
      await app.inject({ method: 'GET', url: '/api/v1/crew/myData?email=pat%40example.com', headers: { authorization: `Bearer ${token}` } });
      await app.inject({ method: 'POST', url: '/api/v1/crew/login', payload: { email: 'admin@example.com', password: 'PASSWORD-SECRET' } });
    } finally {
      await app.close();
    }
    const log = lines.join('');
    // The requests were logged…
    expect(log).toContain('/resetPassword?resetToken=[redacted]&userId=[redacted]');
    expect(log).toContain('sig=[redacted]');
    // …without their secrets.
    for (const secret of ['RESET-SECRET-abc', 'SIG-SECRET-xyz', 'pat%40example.com', 'pat@example.com', 'PASSWORD-SECRET', token]) {
      expect(log).not.toContain(secret);
    }
  });
});
