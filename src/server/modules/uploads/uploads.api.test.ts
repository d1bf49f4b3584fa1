import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOC_KINDS, SESSION_COOKIE } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import { UPLOAD_RULES } from '../../../shared/uploads';
import { createTestApp } from '../../test/harness';
import { makeStorageKey, parseStorageKey, requireUploadedFile, storageKeyOwnedBy } from '../../storage/keys';
import type { LocalStorage } from '../../storage/local';
import { FILE_MSG } from './files.routes';
import { UPLOAD_MSG } from './uploads.service';

const t = await createTestApp();
const storage = t.ctx.storage as LocalStorage;
const filesDir = path.join(t.dataDir, 'files');
const tokens = {
  admin: await t.login('admin@example.com'),
  office: await t.login('office@example.com'),
  foreman: await t.login('foreman@example.com'),
  wforeman: await t.login('wforeman@example.com'),
  lineman: await t.login('lineman@example.com'),
  apprentice: await t.login('apprentice@example.com'),
  other: await t.login('admin@other.example.com'),
};
const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\n');
const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function signDoc(token: string | undefined, query: Record<string, string>) {
  return t.request({ method: 'GET', url: `/api/v1/doc_upload/sign-s3-pdf?${new URLSearchParams(query)}`, token });
}
function signMedia(token: string | undefined, query: Record<string, string>) {
  return t.request({ method: 'GET', url: `/api/v1/media_upload/sign-s3-media?${new URLSearchParams({ isVideo: 'false', ...query })}`, token });
}
function putFile(url: string, body: Buffer, contentType: string | undefined, extra: Record<string, string> = {}) {
  return t.app.inject({ method: 'PUT', url, payload: body, headers: { ...(contentType ? { 'content-type': contentType } : {}), ...extra } });
}
function getFile(url: string, token?: string, headers: Record<string, string> = {}) {
  return t.request({ method: 'GET', url, token, headers });
}
/** Every regular file under DATA_DIR/files, relative, sidecars and temporary files excluded. */
function storedFiles(): string[] {
  if (!existsSync(filesDir)) return [];
  return (readdirSync(filesDir, { recursive: true }) as string[])
    .filter((p) => !p.startsWith('.meta') && !p.startsWith('.tmp'))
    .filter((p) => parseStorageKey(p.split(path.sep).join('/')) !== null);
}

async function signedPdf(token = tokens.admin, directory = 'work_packet', fileName = 'Packet.pdf') {
  const res = await signDoc(token, { directory, fileName, fileType: 'application/pdf' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { signedRequest: string; url: string; headers: Record<string, string>; maxBytes: number };
}

const demoCompanyId = parseStorageKey(storage.keyFromUrl((await signedPdf()).url)!)!.companyId;

describe('GET /doc_upload/sign-s3-pdf', () => {
  it('requires authentication', async () => {
    const res = await signDoc(undefined, { directory: 'work_packet', fileName: 'a.pdf', fileType: 'application/pdf' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe(MSG.notSignedIn);
  });

  it('signs every document kind with a server-made key company/kind/random/name', async () => {
    const types = { excel: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } as Record<string, string>;
    for (const kind of DOC_KINDS) {
      const fileName = kind === 'excel' ? 'Tickets 2024.xlsx' : 'Dig Safe #7.pdf';
      const res = await signDoc(tokens.admin, { directory: kind, fileName, fileType: types[kind] ?? 'application/pdf' });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.url).toMatch(new RegExp(`^/files/${demoCompanyId}/${kind}/[0-9a-f-]{36}/(Tickets_2024\\.xlsx|Dig_Safe_7\\.pdf)$`));
      // Absolute, on PUBLIC_URL (an integrator PUTs to it as given); the kept url stays a path.
      expect(body.signedRequest.startsWith(`${t.config.publicUrl}${body.url}?`)).toBe(true);
      const q = new URL(body.signedRequest, 'http://x').searchParams;
      expect(q.get('ct')).toBe(types[kind] ?? 'application/pdf');
      expect(Number(q.get('max'))).toBe(UPLOAD_RULES[kind].maxBytes);
      expect(q.get('sig')).toBeTruthy();
      expect(body.headers).toEqual({ 'Content-Type': types[kind] ?? 'application/pdf' });
      expect(body.maxBytes).toBe(UPLOAD_RULES[kind].maxBytes);
    }
  });

  it('two signs of the same file name get different keys', async () => {
    const a = await signedPdf();
    const b = await signedPdf();
    expect(a.url).not.toBe(b.url);
  });

  it('answers 400 naming the kinds for an unknown or missing directory', async () => {
    for (const directory of ['images', '../etc', '']) {
      const res = await signDoc(tokens.admin, { directory, fileName: 'a.pdf', fileType: 'application/pdf' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(UPLOAD_MSG.unknownKind(directory));
      expect(res.json().error).toContain('excel, work_packet, dig_file, nra_file, permit');
    }
    const none = await t.request({ method: 'GET', url: '/api/v1/doc_upload/sign-s3-pdf?fileName=a.pdf&fileType=application/pdf', token: tokens.admin });
    expect(none.statusCode).toBe(400);
  });

  it('answers 400 with what to choose for a type the kind does not take', async () => {
    const cases: [string, string, string][] = [
      ['excel', 'Packet.pdf', 'application/pdf'],
      ['work_packet', 'Tickets.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['permit', 'page.html', 'text/html'],
      ['dig_file', 'logo.svg', 'image/svg+xml'],
    ];
    for (const [directory, fileName, fileType] of cases) {
      const res = await signDoc(tokens.admin, { directory, fileName, fileType });
      expect(res.statusCode, `${directory} ${fileType}`).toBe(400);
      expect(res.json().error).toContain(`"${fileName}" is `);
      expect(res.json().error).toContain(`cannot be uploaded here. Choose ${UPLOAD_RULES[directory as 'excel'].describe}.`);
      // A person reads this: the kind of file in words, never its MIME type.
      expect(res.json().error).not.toContain(fileType);
    }
  });

  it('accepts a type the browser did not know when the extension tells it, and signs the real type', async () => {
    const res = await signDoc(tokens.admin, { directory: 'excel', fileName: 'Tickets.XLSX', fileType: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().headers['Content-Type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const csv = await signDoc(tokens.admin, { directory: 'excel', fileName: 'tickets.csv', fileType: 'application/vnd.ms-excel' });
    expect(csv.json().headers['Content-Type']).toBe('text/csv');
  });

  it('answers 400 when the declared size is over the limit of the kind, or fileName is missing', async () => {
    const big = await signDoc(tokens.admin, { directory: 'work_packet', fileName: 'a.pdf', fileType: 'application/pdf', fileSize: String(26 * 1024 * 1024) });
    expect(big.statusCode).toBe(400);
    expect(big.json().error).toBe('"a.pdf" is 26 MB; files here can be at most 25 MB. Choose a smaller file.');
    const missing = await signDoc(tokens.admin, { directory: 'work_packet', fileType: 'application/pdf' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe(UPLOAD_MSG.missingName);
    const badSize = await signDoc(tokens.admin, { directory: 'work_packet', fileName: 'a.pdf', fileType: 'application/pdf', fileSize: '-3' });
    expect(badSize.statusCode).toBe(400);
    const longName = await signDoc(tokens.admin, { directory: 'work_packet', fileName: `${'a'.repeat(300)}.pdf`, fileType: 'application/pdf' });
    expect(longName.statusCode).toBe(400);
    expect(longName.json().error).toContain('longer than 255 characters');
  });

  it('with the size declared, signs exactly that size', async () => {
    const res = await signDoc(tokens.admin, { directory: 'work_packet', fileName: 'a.pdf', fileType: 'application/pdf', fileSize: String(pdf.length) });
    expect(res.json().maxBytes).toBe(pdf.length);
    const put = await putFile(res.json().signedRequest, Buffer.concat([pdf, Buffer.from('x')]), 'application/pdf');
    expect(put.statusCode).toBe(413);
    expect((await putFile(res.json().signedRequest, pdf, 'application/pdf')).statusCode).toBe(200);
  });

  it('applies the role matrix: jobs.write for excel/work_packet, tickets.edit for dig_file/nra_file/permit', async () => {
    const allowed: Record<string, string[]> = {
      excel: ['admin', 'office', 'foreman'],
      work_packet: ['admin', 'office', 'foreman'],
      dig_file: ['admin', 'office', 'foreman', 'wforeman'],
      nra_file: ['admin', 'office', 'foreman', 'wforeman'],
      permit: ['admin', 'office', 'foreman', 'wforeman'],
    };
    for (const kind of DOC_KINDS) {
      for (const [who, token] of Object.entries(tokens)) {
        if (who === 'other') continue;
        const fileType = kind === 'excel' ? 'text/csv' : 'application/pdf';
        const res = await signDoc(token, { directory: kind, fileName: kind === 'excel' ? 't.csv' : 'd.pdf', fileType });
        const expected = allowed[kind].includes(who) ? 200 : 403;
        expect(res.statusCode, `${who} ${kind}`).toBe(expected);
        if (expected === 403) expect(res.json().error).toBe(MSG.forbidden);
      }
    }
  });

  it('a client-chosen ../ or absolute path never reaches the disk', async () => {
    const evil = ['../../../../tmp/evil.pdf', '/etc/passwd.pdf', '..\\..\\windows\\win.pdf', '....//....//x.pdf', '%2e%2e%2fup.pdf', '.htaccess.pdf', '..'];
    for (const fileName of evil) {
      const res = await signDoc(tokens.admin, { directory: 'permit', fileName, fileType: 'application/pdf' });
      expect(res.statusCode, `${fileName}: ${res.body}`).toBe(200);
      const { url, signedRequest } = res.json();
      const key = storage.keyFromUrl(url)!;
      const parts = parseStorageKey(key)!;
      expect(parts).toMatchObject({ companyId: demoCompanyId, kind: 'permit' });
      expect(parts.name).not.toMatch(/^\.|\/|\\/);
      expect((await putFile(signedRequest, pdf, 'application/pdf')).statusCode).toBe(200);
      expect(readFileSync(path.join(filesDir, ...key.split('/')))).toEqual(pdf);
    }
    expect(existsSync(path.join(path.dirname(t.dataDir), 'tmp', 'evil.pdf'))).toBe(false);
    expect(existsSync(path.join(filesDir, '..', 'up.pdf'))).toBe(false);
  });
});

describe('GET /media_upload/sign-s3-media', () => {
  it('requires authentication', async () => {
    expect((await signMedia(undefined, { fileName: 'p.jpg', fileType: 'image/jpeg' })).statusCode).toBe(401);
  });

  it('lets every role sign a photo (tickets.annotate) under <company>/media/', async () => {
    for (const [who, token] of Object.entries(tokens)) {
      const res = await signMedia(token, { fileName: 'IMG_0001.JPG', fileType: 'image/jpeg' });
      expect(res.statusCode, who).toBe(200);
      expect(res.json().url).toMatch(/^\/files\/\d+\/media\/[0-9a-f-]{36}\/IMG_0001\.JPG$/);
      expect(res.json().maxBytes).toBe(UPLOAD_RULES.media.maxBytes);
    }
  });

  it('takes images only, and no video', async () => {
    for (const [fileName, fileType] of [
      ['doc.pdf', 'application/pdf'],
      ['x.svg', 'image/svg+xml'],
      ['clip.mp4', 'video/mp4'],
    ]) {
      const res = await signMedia(tokens.lineman, { fileName, fileType });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain('cannot be uploaded here. Choose a photo (JPEG, PNG, GIF, WebP, AVIF).');
    }
    const video = await signMedia(tokens.lineman, { fileName: 'clip.mp4', fileType: 'video/mp4', isVideo: 'true' });
    expect(video.statusCode).toBe(400);
    expect(video.json().error).toBe(UPLOAD_MSG.video);
    const big = await signMedia(tokens.lineman, { fileName: 'p.png', fileType: 'image/png', fileSize: String(21 * 1024 * 1024) });
    expect(big.statusCode).toBe(400);
    expect(big.json().error).toContain('at most 20 MB');
  });
});

describe('PUT /files/<key> (the signed upload URL of local storage)', () => {
  it('round trip: sign, PUT, GET the same bytes with the signed content type', async () => {
    const signed = await signedPdf();
    const put = await putFile(signed.signedRequest, pdf, signed.headers['Content-Type'], { 'x-amz-acl': 'public-read' });
    expect(put.statusCode, put.body).toBe(200);
    const got = await getFile(signed.url, tokens.lineman);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['content-disposition']).toBe('inline; filename="Packet.pdf"');
    expect(got.rawPayload.equals(pdf)).toBe(true);
  });

  it('a signed URL is single-use: a second PUT answers 409 with what to do, and the file keeps the first bytes', async () => {
    const signed = await signedPdf();
    expect((await putFile(signed.signedRequest, pdf, 'application/pdf')).statusCode).toBe(200);
    const again = await putFile(signed.signedRequest, Buffer.from('%PDF-1.4 something else'), 'application/pdf');
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(FILE_MSG.linkUsed);
    const got = await getFile(signed.url, tokens.admin);
    expect(got.rawPayload.equals(pdf)).toBe(true);
  });

  it('takes a file much bigger than the 1 MiB JSON limit of the API', async () => {
    const res = await signMedia(tokens.admin, { fileName: 'big.png', fileType: 'image/png' });
    const body = Buffer.alloc(5 * 1024 * 1024, 3);
    const put = await putFile(res.json().signedRequest, body, 'image/png');
    expect(put.statusCode, put.body).toBe(200);
    expect((await storage.head(storage.keyFromUrl(res.json().url)!))?.size).toBe(body.length);
  });

  it('refuses another content type than the signed one with 400, and stores nothing', async () => {
    const signed = await signedPdf();
    for (const type of ['text/html', undefined]) {
      const put = await putFile(signed.signedRequest, Buffer.from('<script>alert(1)</script>'), type);
      expect(put.statusCode).toBe(400);
      expect(put.json().error).toBe(FILE_MSG.wrongType('application/pdf', type ?? ''));
      // In words a person knows, never a MIME type.
      expect(put.json().error).toContain('a PDF');
      expect(put.json().error).not.toMatch(/application\/|text\/html/);
    }
    expect(await storage.head(storage.keyFromUrl(signed.url)!)).toBeNull();
  });

  it('refuses a changed signature, limit, type or key with 403', async () => {
    const signed = await signedPdf();
    const u = new URL(signed.signedRequest, 'http://x');
    const variants: [string, (q: URLSearchParams) => void][] = [
      ['sig', (q) => q.set('sig', q.get('sig')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')))],
      ['max', (q) => q.set('max', String(Number(q.get('max')) * 2))],
      ['ct', (q) => q.set('ct', 'text/html')],
      ['exp', (q) => q.set('exp', String(Number(q.get('exp')) + 3600))],
    ];
    for (const [what, change] of variants) {
      const q = new URLSearchParams(u.searchParams);
      change(q);
      const put = await putFile(`${u.pathname}?${q}`, pdf, q.get('ct')!);
      expect(put.statusCode, what).toBe(403);
      expect(put.json().error).toBe(FILE_MSG.linkInvalid);
    }
    const otherKey = makeStorageKey(demoCompanyId, 'work_packet', 'Other.pdf');
    const moved = await putFile(`${storage.urlFor(otherKey)}${u.search}`, pdf, 'application/pdf');
    expect(moved.statusCode).toBe(403);
    expect(await storage.head(otherKey)).toBeNull();
    const bare = await putFile(signed.url, pdf, 'application/pdf');
    expect(bare.statusCode).toBe(403);
    expect(bare.json().error).toBe(FILE_MSG.linkIncomplete);
  });

  it('refuses an expired link with 403 and says to ask for a new one', async () => {
    const key = makeStorageKey(demoCompanyId, 'permit', 'late.pdf');
    const signed = await storage.signUpload({ key, contentType: 'application/pdf', maxBytes: 1000, ttlSeconds: -1 });
    const put = await putFile(signed.signedRequest, pdf, 'application/pdf');
    expect(put.statusCode).toBe(403);
    expect(put.json().error).toBe(FILE_MSG.linkExpired);
    expect(await storage.head(key)).toBeNull();
  });

  it('refuses a file over the signed limit with 413 and leaves nothing on disk', async () => {
    const key = makeStorageKey(demoCompanyId, 'media', 'big.png');
    const signed = await storage.signUpload({ key, contentType: 'image/png', maxBytes: 1000 });
    const before = storedFiles().length;
    const put = await putFile(signed.signedRequest, Buffer.alloc(1001), 'image/png');
    expect(put.statusCode).toBe(413);
    expect(put.json().error).toBe(FILE_MSG.tooLarge(1000));
    expect(await storage.head(key)).toBeNull();
    expect(storedFiles().length).toBe(before);
  });

  it('over real HTTP, a chunked upload without Content-Length is cut off at the limit with 413', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const key = makeStorageKey(demoCompanyId, 'media', 'stream.png');
    const signed = await storage.signUpload({ key, contentType: 'image/png', maxBytes: 64 * 1024 });
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(new URL(signed.signedRequest, address), { method: 'PUT', headers: { 'content-type': 'image/png' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      // 20 chunks of 16 KiB = 320 KiB, sent without a Content-Length.
      let sent = 0;
      const pump = () => {
        while (sent < 20) {
          sent++;
          if (!req.write(Buffer.alloc(16 * 1024, 1))) return req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(status).toBe(413);
    expect(await storage.head(key)).toBeNull();
    expect(readdirSync(path.join(filesDir, '.tmp'))).toEqual([]);
  });

  it('answers 404, not 500, for paths that are not keys', async () => {
    for (const url of ['/files/../../etc/passwd', '/files/1/media/%2e%2e/%2e%2e/x', '/files/1/nope', '/files/']) {
      const put = await putFile(`${url}?ct=a&max=1&exp=1&sig=x`, pdf, 'application/pdf');
      expect(put.statusCode, url).toBe(404);
      const got = await getFile(url, tokens.admin);
      expect(got.statusCode, url).toBe(404);
    }
  });
});

describe('GET /files/<key>', () => {
  const uploaded = (async () => {
    const signed = await signedPdf(tokens.admin, 'dig_file', 'dig.pdf');
    await putFile(signed.signedRequest, pdf, 'application/pdf');
    return signed.url;
  })();

  it('requires a signed-in user', async () => {
    const res = await getFile(await uploaded);
    expect(res.statusCode).toBe(401);
  });

  it('works with the session cookie, as an <img src> sends it', async () => {
    const res = await getFile(await uploaded, undefined, { cookie: `${SESSION_COOKIE}=${tokens.apprentice}` });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(pdf)).toBe(true);
  });

  it("answers 404 for another company's file, as for a missing one", async () => {
    const res = await getFile(await uploaded, tokens.other);
    expect(res.statusCode).toBe(404);
    const missing = await getFile(storage.urlFor(makeStorageKey(demoCompanyId, 'dig_file', 'none.pdf')), tokens.admin);
    expect(missing.statusCode).toBe(404);
  });

  it('serves a spreadsheet as a download and a photo inline', async () => {
    const sheet = await signDoc(tokens.admin, { directory: 'excel', fileName: 't.csv', fileType: 'text/csv' });
    await putFile(sheet.json().signedRequest, Buffer.from('a,b\n1,2\n'), 'text/csv');
    const got = await getFile(sheet.json().url, tokens.admin);
    expect(got.headers['content-type']).toBe('text/csv');
    expect(got.headers['content-disposition']).toBe('attachment; filename="t.csv"');
    const photo = await signMedia(tokens.admin, { fileName: 'p.png', fileType: 'image/png' });
    await putFile(photo.json().signedRequest, png, 'image/png');
    const img = await getFile(photo.json().url, tokens.admin);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.headers['content-disposition']).toBe('inline; filename="p.png"');
  });
});

describe('helpers for other modules', () => {
  it('storageKeyOwnedBy accepts only this company’s urls of the given kinds', async () => {
    const signed = await signedPdf();
    const otherCompanyId = demoCompanyId + 1;
    expect(storageKeyOwnedBy(storage, demoCompanyId, signed.url)).toBe(storage.keyFromUrl(signed.url));
    expect(storageKeyOwnedBy(storage, demoCompanyId, signed.url, ['work_packet'])).not.toBeNull();
    expect(storageKeyOwnedBy(storage, demoCompanyId, signed.url, ['media'])).toBeNull();
    expect(storageKeyOwnedBy(storage, otherCompanyId, signed.url)).toBeNull();
    expect(storageKeyOwnedBy(storage, demoCompanyId, 'https://evil.example.com/files/1/media/x/y.png')).toBeNull();
    expect(storageKeyOwnedBy(storage, demoCompanyId, null)).toBeNull();
  });

  it('requireUploadedFile checks ownership and that the upload finished', async () => {
    const signed = await signedPdf();
    await expect(requireUploadedFile(storage, demoCompanyId, signed.url, ['work_packet'], 'work packet')).rejects.toThrow(
      'The work packet upload did not finish. Upload the work packet again.',
    );
    await putFile(signed.signedRequest, pdf, 'application/pdf');
    await expect(requireUploadedFile(storage, demoCompanyId, signed.url, ['work_packet'])).resolves.toMatchObject({
      size: pdf.length,
      contentType: 'application/pdf',
      name: 'Packet.pdf',
    });
    await expect(requireUploadedFile(storage, demoCompanyId + 1, signed.url, ['work_packet'], 'work packet')).rejects.toThrow(
      'The work packet link is not a file uploaded to this company. Upload the work packet again.',
    );
  });
});
