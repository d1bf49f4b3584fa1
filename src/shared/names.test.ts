import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { normalizeCode } from './names';
import { codeText } from './text';

describe('normalizeCode (docs/product/sessions-and-safety.md §9 names that look alike)', () => {
  it('makes every look-alike of a job number the same text', () => {
    for (const s of ['J-1', 'Ｊ-１', 'Ｊ－１', 'J\u200b-1', 'J-1\u00a0', ' J-1 ', '\u202eJ-1', 'J\u200d-\u20601', '\ufeffJ-1', 'J\u2066-1\u2069', 'J\u00ad-1']) {
      expect(normalizeCode(s), JSON.stringify(s)).toBe('J-1');
    }
  });

  it('collapses blanks (tabs, no-break and other Unicode spaces, line breaks) to one space', () => {
    expect(normalizeCode('Main\u00a0\u00a0Line')).toBe('Main Line');
    expect(normalizeCode('L\t1\n2\u3000 3\u2009 4')).toBe('L 1 2 3 4');
  });

  it('keeps what is really different: letter case, and letters of other scripts', () => {
    expect(normalizeCode('j-1')).toBe('j-1');
    // Cyrillic Ј (U+0408) is another letter to Unicode; NFKC does not fold scripts (decision 040).
    expect(normalizeCode('\u0408-1')).not.toBe('J-1');
  });

  it('is what a codeText() schema stores', () => {
    const schema = z.object({ job_number: codeText().min(1, 'Enter a job number.') });
    expect(schema.parse({ job_number: ' Ｊ-１\u200b ' })).toEqual({ job_number: 'J-1' });
    expect(schema.safeParse({ job_number: '\u200b\u00a0' }).success).toBe(false);
  });
});
