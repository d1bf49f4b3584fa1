import { describe, expect, it } from 'vitest';
import { findUnstorableText, isStorableText, storableString } from './text';

describe('isStorableText', () => {
  it('accepts ordinary text, accents, emoji (a valid surrogate pair) and line breaks', () => {
    for (const s of ['', 'Pole 12', 'Café – 5 ½"', 'crew 👷 ok', 'a\nb\tc\r\n']) expect(isStorableText(s)).toBe(true);
  });

  it('refuses a NUL byte and lone or reversed surrogates', () => {
    for (const s of ['a\u0000b', '\u0000', 'x\ud800', '\udc00y', '\udc00\ud800', '👷'.slice(0, 1)]) expect(isStorableText(s)).toBe(false);
  });
});

describe('findUnstorableText', () => {
  it('names the path of the first bad value or key, and skips bytes', () => {
    expect(findUnstorableText({ job: { tickets: [{ note_text: 'ok' }, { note_text: 'bad\u0000' }] } })).toBe('job.tickets.1.note_text');
    expect(findUnstorableText({ mappings: { 'Pole\u0000': 'A' } })).toBe('mappings');
    expect(findUnstorableText('x\ud800')).toBe('request');
    expect(findUnstorableText({ file: Buffer.from([0, 0, 0]), n: 3, ok: true, none: null })).toBeNull();
    // A stream (a raw upload body) is bytes: skipped, not walked; a cycle ends the walk.
    expect(findUnstorableText({ body: { pipe: () => undefined, chunk: 'x\u0000' } })).toBeNull();
    const circular: Record<string, unknown> = { ok: 'fine' };
    circular.self = circular;
    expect(findUnstorableText(circular)).toBeNull();
    // Query parsers build objects on a bare prototype of their own: still walked.
    class Query {}
    Object.setPrototypeOf(Query.prototype, null);
    expect(findUnstorableText(Object.assign(new Query(), { q: 'x\u0000' }))).toBe('q');
    expect(findUnstorableText(Object.assign(Object.create(null), { q: 'x\u0000' }))).toBe('q');
  });
});

describe('findUnstorableText on deep values', () => {
  it('walks 100,000 levels without recursion (no stack overflow) and still names the path', () => {
    let deep: unknown = 'bad\u0000';
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { a: deep };
    const path = findUnstorableText(deep);
    expect(path?.split('.')).toHaveLength(100_000);
    let fine: unknown = 'ok';
    for (let i = 0; i < 100_000; i++) fine = [fine];
    expect(findUnstorableText(fine)).toBeNull();
  });

  it('reports the first bad place in document order, keys before what they hold', () => {
    expect(findUnstorableText({ a: { b: 'ok', c: ['x', 'y\u0000'] }, d: 'z\u0000' })).toBe('a.c.1');
    expect(findUnstorableText({ a: { 'k\u0000': { v: 'bad\u0000' } } })).toBe('a');
  });
});

describe('storableString', () => {
  it('is a zod string with the rule and its message', () => {
    expect(storableString().safeParse('ok').success).toBe(true);
    const bad = storableString().safeParse('a\u0000');
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toMatch(/cannot be stored/);
  });
});
