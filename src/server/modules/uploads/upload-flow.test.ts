import { describe, expect, it } from 'vitest';
import { MSG } from '../../../shared/messages';
import { uploadFile, UploadError } from '../../../web/api/upload';
import { createTestApp } from '../../test/harness';

/** The browser's half of docs/product/api.md §6 (src/web/api/upload.ts) against the real server over HTTP. */
const t = await createTestApp();
const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
const token = await t.login('foreman@example.com');
const lineman = await t.login('lineman@example.com');

const pdfFile = () => new File([Buffer.from('%PDF-1.4\n%%EOF\n')], 'Work Packet.pdf', { type: 'application/pdf' });

describe('uploadFile (web) → sign → PUT → GET', () => {
  it('uploads a packet and returns the url, which serves the same bytes', async () => {
    const file = pdfFile();
    const up = await uploadFile('work_packet', file, { token, origin });
    expect(up).toMatchObject({ name: 'Work Packet.pdf', size: file.size, type: 'application/pdf' });
    expect(up.url).toMatch(/^\/files\/\d+\/work_packet\/[0-9a-f-]{36}\/Work_Packet\.pdf$/);
    const got = await fetch(`${origin}${up.url}`, { headers: { authorization: `Bearer ${token}` } });
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).toString()).toBe('%PDF-1.4\n%%EOF\n');
  });

  it('an .xlsx the browser gave no type gets the right one', async () => {
    const file = new File([Buffer.from('PK\u0003\u0004')], 'Tickets.xlsx', { type: '' });
    const up = await uploadFile('excel', file, { token, origin });
    expect(up.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  });

  it('fails before any request for a file the kind does not take', async () => {
    const err = await uploadFile('media', pdfFile(), { token, origin }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UploadError);
    expect((err as UploadError).stage).toBe('check');
  });

  it('without a session: "Not logged in"', async () => {
    await expect(uploadFile('work_packet', pdfFile(), { token: null, origin })).rejects.toThrow(MSG.notSignedIn);
  });

  it("a refused signature: 'Failed to get signed URL: {reason}'", async () => {
    await expect(uploadFile('work_packet', pdfFile(), { token: lineman, origin })).rejects.toThrow(MSG.signedUrlFailed(MSG.forbidden));
  });
});
