import { describe, expect, it } from 'vitest';
import { searchDelayWait } from './useSearchDelay';

describe('search delay (docs/product/rules.md §4.1: throttle under 5 characters, debounce from 5, both 1 s)', () => {
  it('throttles short text: applied at once when the last search was over a second ago', () => {
    expect(searchDelayWait('ab', 0, 10_000)).toBe(0);
  });

  it('throttles short text: otherwise waits for the end of the current second', () => {
    expect(searchDelayWait('abc', 10_000, 10_300)).toBe(700);
    expect(searchDelayWait('', 10_000, 10_999)).toBe(1);
  });

  it('debounces text of 5 or more characters: always a full second after the last keystroke', () => {
    expect(searchDelayWait('abcde', 0, 10_000)).toBe(1000);
    expect(searchDelayWait('abcdef', 10_000, 10_300)).toBe(1000);
  });
});
