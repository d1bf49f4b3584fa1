import { describe, expect, it } from 'vitest';
import { isValidKey, makeStorageKey, parseStorageKey, sanitizeFileName, siblingStorageKey } from './keys';

describe('sanitizeFileName', () => {
  it.each([
    ['Packet 1.pdf', 'Packet_1.pdf'],
    ['../../../../etc/passwd', 'passwd'],
    ['/etc/passwd', 'passwd'],
    ['C:\\Users\\x\\..\\Pole 12 (ä).PDF', 'Pole_12_a.PDF'],
    ['..', 'file'],
    ['.htaccess', 'file.htaccess'],
    ['...pdf', 'file.pdf'],
    ['%2e%2e%2fup.pdf', '2e_2e_2fup.pdf'],
    ['a..b....c.pdf', 'a.b.c.pdf'],
    ['日本語.pdf', 'file.pdf'],
    ['   ', 'file'],
    ['name\u0000.pdf', 'name.pdf'],
    ['-rf .pdf', 'rf.pdf'],
  ])('%j → %j', (input, expected) => {
    expect(sanitizeFileName(input)).toBe(expected);
  });

  it('keeps the extension when it shortens a long name to 100 characters', () => {
    const out = sanitizeFileName(`${'x'.repeat(300)}.xlsx`);
    expect(out.length).toBe(100);
    expect(out.endsWith('.xlsx')).toBe(true);
  });
});

describe('makeStorageKey', () => {
  it('makes <companyId>/<kind>/<random id>/<sanitized name>, different every time', () => {
    const a = makeStorageKey(12, 'work_packet', '../Packet.pdf');
    const b = makeStorageKey(12, 'work_packet', '../Packet.pdf');
    expect(a).toMatch(/^12\/work_packet\/[0-9a-f-]{36}\/Packet\.pdf$/);
    expect(a).not.toBe(b);
    expect(parseStorageKey(a)).toMatchObject({ companyId: 12, kind: 'work_packet', name: 'Packet.pdf' });
  });

  it('refuses a bad company id or kind', () => {
    expect(() => makeStorageKey(0, 'media', 'a.png')).toThrow();
    expect(() => makeStorageKey(1.5, 'media', 'a.png')).toThrow();
    expect(() => makeStorageKey(1, '../x' as 'media', 'a.png')).toThrow();
  });

  it('a thumbnail key sits next to its image', () => {
    const key = makeStorageKey(3, 'media', 'IMG_1.jpg');
    const thumb = siblingStorageKey(key, 'thumbnail', 'IMG_1.jpg');
    expect(thumb).toBe(key.replace('/media/', '/thumbnail/'));
  });
});

describe('parseStorageKey / isValidKey', () => {
  it.each(['../1/media/a/b', '/1/media/a/b', '1/media/../b', '1/media/a/.b', '1/media/a', '1/media/a/b/c', '0/media/a/b', 'x/media/a/b', '1/other/a/b', '1//a/b', ''])(
    'refuses %j',
    (key) => {
      expect(parseStorageKey(key)).toBeNull();
    },
  );

  it('isValidKey refuses traversal and dot segments', () => {
    expect(isValidKey('1/media/a/b.png')).toBe(true);
    for (const k of ['..', '../a', 'a/../b', '/a', 'a/', '.meta/x', 'a\\b', 'a/b c']) expect(isValidKey(k), k).toBe(false);
  });
});
