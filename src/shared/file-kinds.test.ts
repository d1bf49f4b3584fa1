import { describe, expect, it } from 'vitest';
import { acceptsSniffed, sniffFileKind, wrongKindMessage } from './file-kinds';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('sniffFileKind', () => {
  it('names each kind by its first bytes', () => {
    expect(sniffFileKind(bytes('%PDF-1.7\n'))).toBe('pdf');
    expect(sniffFileKind(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffFileKind(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(sniffFileKind(bytes('GIF89a'))).toBe('gif');
    expect(sniffFileKind(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toBe('webp');
    expect(sniffFileKind(bytes([0, 0, 0, 0x1c], 'ftypavif'))).toBe('avif');
    expect(sniffFileKind(bytes([0x50, 0x4b, 0x03, 0x04]))).toBe('zip');
    expect(sniffFileKind(bytes([0xd0, 0xcf, 0x11, 0xe0]))).toBe('ole');
    expect(sniffFileKind(bytes('<!DOCTYPE html><html>'))).toBe('markup');
    expect(sniffFileKind(bytes([0xef, 0xbb, 0xbf], '\n  <svg>'))).toBe('markup');
    expect(sniffFileKind(bytes('Pole,Line\n1,2\n'))).toBe('text');
    expect(sniffFileKind(bytes([1, 0, 2]))).toBe('unknown');
    expect(sniffFileKind(bytes())).toBe('unknown');
  });

  it('does not take a PDF named in text for a PDF', () => {
    expect(sniffFileKind(bytes('<html>%PDF-1.4</html>'))).toBe('markup');
  });
});

describe('acceptsSniffed', () => {
  it('takes a PDF or an image as a document, only an image as a photo', () => {
    for (const kind of ['work_packet', 'dig_file', 'nra_file', 'permit'] as const) {
      expect(acceptsSniffed(kind, 'pdf')).toBe(true);
      expect(acceptsSniffed(kind, 'jpeg')).toBe(true);
      for (const other of ['markup', 'text', 'zip', 'ole', 'unknown'] as const) expect(acceptsSniffed(kind, other)).toBe(false);
    }
    expect(acceptsSniffed('media', 'png')).toBe(true);
    expect(acceptsSniffed('media', 'pdf')).toBe(false);
  });

  it('words the refusal with the kind expected and the kind found', () => {
    expect(wrongKindMessage('work packet', 'work_packet', 'markup')).toBe(
      'The work packet must be a PDF or a photo (JPEG, PNG, GIF, WebP, AVIF), but this file is a web page or other markup (HTML, XML or SVG). Upload a PDF or a photo (JPEG, PNG, GIF, WebP, AVIF) instead.',
    );
  });
});
