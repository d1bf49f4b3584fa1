/**
 * Task quantity rules (docs/product/rules.md §2.6 Tasks): the actual quantity is init_qty + additional_qty and may
 * not go negative, so additional_qty is clamped to -init_qty. A new task starts at 1.
 */
export const NEW_TASK_ADDITIONAL_QTY = 1;

/** Largest quantity accepted anywhere (bid or change); keeps sums exact in doubles. */
export const MAX_TASK_QTY = 1_000_000;

/** additional_qty raised to -init_qty when it would make the total negative; non-numbers become 0. */
export function clampAdditionalQty(initQty: number, additionalQty: number): number {
  const init = Number.isFinite(initQty) ? initQty : 0;
  const additional = Number.isFinite(additionalQty) ? additionalQty : 0;
  const clamped = Math.max(additional, -init);
  return Object.is(clamped, -0) ? 0 : clamped;
}

/** The actual (completed) quantity the export shows: bid plus change, never below 0. */
export function actualQty(initQty: number, additionalQty: number): number {
  return (Number.isFinite(initQty) ? initQty : 0) + clampAdditionalQty(initQty, additionalQty);
}
