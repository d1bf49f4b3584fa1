import { describe, expect, it } from 'vitest';
import { UPLOAD_KINDS, UPLOAD_RULES, acceptFor, checkUpload, formatBytes, resolveUploadType } from './uploads';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('resolveUploadType', () => {
  it('takes an allowed type as the browser reports it', () => {
    expect(resolveUploadType('excel', 'a.xlsx', XLSX)).toBe(XLSX);
    expect(resolveUploadType('work_packet', 'a.pdf', 'application/pdf')).toBe('application/pdf');
    expect(resolveUploadType('permit', 'photo.jpg', 'image/jpeg')).toBe('image/jpeg');
    expect(resolveUploadType('media', 'p.PNG', 'IMAGE/PNG')).toBe('image/png');
  });

  it('lets the extension decide when the browser does not know the type', () => {
    expect(resolveUploadType('excel', 'Tickets.XLSX', '')).toBe(XLSX);
    expect(resolveUploadType('excel', 'tickets.csv', 'application/octet-stream')).toBe('text/csv');
    expect(resolveUploadType('excel', 'tickets.csv', 'application/vnd.ms-excel')).toBe('text/csv');
    expect(resolveUploadType('media', 'noext', '')).toBeNull();
  });

  it('normalises aliases', () => {
    expect(resolveUploadType('media', 'a.jpg', 'image/jpg')).toBe('image/jpeg');
    expect(resolveUploadType('excel', 'a.csv', 'application/csv')).toBe('text/csv');
    expect(resolveUploadType('excel', 'a.csv', 'text/csv; charset=utf-8')).toBe('text/csv');
  });

  it('refuses what the kind does not take', () => {
    expect(resolveUploadType('excel', 'a.pdf', 'application/pdf')).toBeNull();
    expect(resolveUploadType('media', 'a.pdf', 'application/pdf')).toBeNull();
    expect(resolveUploadType('media', 'a.svg', 'image/svg+xml')).toBeNull();
    expect(resolveUploadType('media', 'a.heic', 'image/heic')).toBeNull();
    expect(resolveUploadType('work_packet', 'a.html', 'text/html')).toBeNull();
    expect(resolveUploadType('work_packet', 'a.xlsx', XLSX)).toBeNull();
  });
});

describe('checkUpload', () => {
  it('passes a good file with the content type to send', () => {
    expect(checkUpload('work_packet', { name: 'p.pdf', type: 'application/pdf', size: 1000 })).toEqual({ ok: true, contentType: 'application/pdf' });
  });

  it('says what to choose for a wrong type', () => {
    expect(checkUpload('excel', { name: 'p.pdf', type: 'application/pdf' })).toEqual({
      ok: false,
      message: '"p.pdf" is a PDF, which cannot be uploaded here. Choose an Excel workbook (.xlsx) or a CSV file.',
    });
  });

  it('says how big a file may be', () => {
    const res = checkUpload('media', { name: 'p.jpg', type: 'image/jpeg', size: 30 * 1024 * 1024 });
    expect(res).toEqual({ ok: false, message: '"p.jpg" is 30 MB; files here can be at most 20 MB. Choose a smaller file.' });
    expect(checkUpload('media', { name: 'p.jpg', type: 'image/jpeg', size: UPLOAD_RULES.media.maxBytes }).ok).toBe(true);
    expect(checkUpload('media', { name: 'p.jpg', type: 'image/jpeg', size: 0 }).ok).toBe(false);
  });

  it('needs a name of at most 255 characters', () => {
    expect(checkUpload('media', { name: ' ', type: 'image/jpeg' }).ok).toBe(false);
    expect(checkUpload('media', { name: `${'a'.repeat(252)}.jpg`, type: 'image/jpeg' }).ok).toBe(false);
  });
});

describe('limits and accept lists', () => {
  it('every kind has a rule, documents 25 MB and photos 20 MB', () => {
    for (const kind of UPLOAD_KINDS) expect(UPLOAD_RULES[kind]).toBeDefined();
    expect(UPLOAD_RULES.work_packet.maxBytes).toBe(25 * 1024 * 1024);
    expect(UPLOAD_RULES.media.maxBytes).toBe(20 * 1024 * 1024);
  });

  it('acceptFor lists types and extensions for the file picker', () => {
    expect(acceptFor('excel')).toEqual(expect.arrayContaining([XLSX, 'text/csv', '.xlsx', '.csv']));
    expect(acceptFor('media')).not.toContain('application/pdf');
  });

  it('formatBytes', () => {
    expect(formatBytes(500)).toBe('500 bytes');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(25 * 1024 * 1024)).toBe('25 MB');
  });
});

describe('upload messages name kinds of file, never MIME types', () => {
  it.each([
    ['work_packet', { name: 'notes.docx', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }, '"notes.docx" is a Word document, which cannot be uploaded here. Choose a PDF or a photo (JPEG, PNG, GIF, WebP, AVIF).'],
    ['media', { name: 'packet.pdf', type: 'application/pdf' }, '"packet.pdf" is a PDF, which cannot be uploaded here. Choose a photo (JPEG, PNG, GIF, WebP, AVIF).'],
    ['media', { name: 'clip.mov', type: 'video/quicktime' }, '"clip.mov" is a video, which cannot be uploaded here. Choose a photo (JPEG, PNG, GIF, WebP, AVIF).'],
    ['excel', { name: 'thing.bin', type: 'application/x-weird' }, '"thing.bin" cannot be uploaded here. Choose an Excel workbook (.xlsx) or a CSV file.'],
  ] as const)('%s: %j', (kind, file, message) => {
    const check = checkUpload(kind, file);
    expect(check).toEqual({ ok: false, message });
    if (!check.ok) expect(check.message).not.toMatch(/\b(application|image|video|text)\/[\w.+-]+/);
  });
});
