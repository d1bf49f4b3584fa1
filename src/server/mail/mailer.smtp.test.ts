import { describe, expect, it, afterAll, vi } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { createMailer } from './mailer';
import { createTestApp, resetLinkFrom } from '../test/harness';

/** The reset round trip through a real SMTP peer (smtp-server on loopback), not the outbox. */
const received: { to: string[]; raw: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    let raw = '';
    stream.on('data', (c: Buffer) => (raw += c.toString()));
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
      callback();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const port = (smtp.server.address() as AddressInfo).port;
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

const mail = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}?ignoreTLS=true`, outboxDir: '/nonexistent', from: 'Linecrew <no-reply@example.com>' });
const t = await createTestApp({ mail });

describe('password reset over SMTP', () => {
  it('delivers the link to the SMTP server, and the link resets the password', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/crew/forgot-password', body: { email: 'office@example.com' } });
    expect(res.statusCode).toBe(200);
    // The mail goes out after the reply (no account discovery by timing).
    await vi.waitFor(() => expect(received).toHaveLength(1));
    expect(received[0].to).toEqual(['office@example.com']);
    expect(received[0].raw).toContain('Subject: Reset your Linecrew password');
    const { resetToken, userId } = resetLinkFrom(received[0].raw);
    const reset = await t.request({ method: 'POST', url: '/api/v1/crew/reset-password', body: { resetToken, userId, password: 'via-smtp' } });
    expect(reset.statusCode).toBe(200);
    await t.login('office@example.com', 'via-smtp');
  });
});
