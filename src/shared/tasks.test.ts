import { describe, expect, it } from 'vitest';
import { NEW_TASK_ADDITIONAL_QTY, actualQty, clampAdditionalQty } from './tasks';

describe('clampAdditionalQty (docs/product/rules.md §2.6 Tasks: init_qty + additional_qty never below 0)', () => {
  it('keeps a change that leaves the total at 0 or more', () => {
    expect(clampAdditionalQty(3, 2)).toBe(2);
    expect(clampAdditionalQty(3, -1)).toBe(-1);
    expect(clampAdditionalQty(3, -3)).toBe(-3);
    expect(clampAdditionalQty(0, 5)).toBe(5);
  });
  it('raises a change that would make the total negative to -init_qty', () => {
    expect(clampAdditionalQty(3, -4)).toBe(-3);
    expect(clampAdditionalQty(2.5, -10)).toBe(-2.5);
    expect(clampAdditionalQty(0, -1)).toBe(0);
  });
  it('treats non-numbers as 0', () => {
    expect(clampAdditionalQty(Number.NaN, -1)).toBe(0);
    expect(clampAdditionalQty(2, Number.NaN)).toBe(0);
  });
  it('never answers -0', () => {
    expect(Object.is(clampAdditionalQty(0, -0), 0)).toBe(true);
  });
  it('a new task starts with additional_qty 1', () => {
    expect(NEW_TASK_ADDITIONAL_QTY).toBe(1);
  });
  it('actualQty is bid plus the clamped change', () => {
    expect(actualQty(3, 2)).toBe(5);
    expect(actualQty(3, -5)).toBe(0);
  });
});
