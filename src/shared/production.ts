import Big from 'big.js';
import { amountOf, money, sumMoney, ZERO, type Money } from './money';

/**
 * Production of a job, every figure exactly as docs/product/billing.md defines it, in one place: the
 * production route, the dashboard and the jobs list's "% Complete" all come from here.
 */

/** One task of the job as production needs it. */
export interface ProductionTask {
  code: string;
  description: string;
  uom: string;
  unit_price: Money | null;
  init_qty: number;
  additional_qty: number;
  /** Its ticket is Complete. */
  complete: boolean;
  /** Its ticket is on an invoice. */
  billed: boolean;
}

export interface ProductionUnit {
  code: string;
  description: string;
  uom: string;
  unit_price: Money | null;
  bid_qty: number;
  actual_qty: number;
  completed_qty: number;
  remaining_qty: number;
  bid_amount: Money;
  completed_amount: Money;
  remaining_amount: Money;
}

export interface ProductionTotals {
  bid_amount: Money;
  /** Σ actual_qty × price per unit: the whole of `percent_complete` (not in the route's totals, docs/product/billing.md §3; per foreman it is). */
  actual_amount: Money;
  completed_amount: Money;
  remaining_amount: Money;
  billed_amount: Money;
  unbilled_completed_amount: Money;
  /** 0–100, one decimal; by quantity when no unit of the job has a price. */
  percent_complete: number;
}

/** Quantities are summed exactly (0.1 + 0.2 = 0.3) and handed back as plain numbers. */
const qty = (value: Big) => Number(value.toString());

export function computeProduction(tasks: readonly ProductionTask[], billedAmount: Money = ZERO): { units: ProductionUnit[]; totals: ProductionTotals } {
  const byCode = new Map<string, { first: ProductionTask; bid: Big; actual: Big; completed: Big; unbilledCompleted: Big }>();
  for (const task of tasks) {
    let unit = byCode.get(task.code);
    if (!unit) byCode.set(task.code, (unit = { first: task, bid: new Big(0), actual: new Big(0), completed: new Big(0), unbilledCompleted: new Big(0) }));
    const actual = new Big(task.init_qty).plus(task.additional_qty);
    unit.bid = unit.bid.plus(task.init_qty);
    unit.actual = unit.actual.plus(actual);
    if (task.complete) {
      unit.completed = unit.completed.plus(actual);
      if (!task.billed) unit.unbilledCompleted = unit.unbilledCompleted.plus(actual);
    }
  }
  const units: ProductionUnit[] = [];
  const unbilled: Money[] = [];
  let actualQty = new Big(0);
  let completedQty = new Big(0);
  let actualAmount = new Big(0);
  let priced = false;
  for (const [code, u] of [...byCode].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const price = u.first.unit_price;
    const remaining = u.actual.minus(u.completed);
    const unit: ProductionUnit = {
      code,
      description: u.first.description,
      uom: u.first.uom,
      unit_price: price,
      bid_qty: qty(u.bid),
      actual_qty: qty(u.actual),
      completed_qty: qty(u.completed),
      remaining_qty: qty(remaining),
      bid_amount: amountOf(qty(u.bid), price),
      completed_amount: amountOf(qty(u.completed), price),
      remaining_amount: amountOf(qty(remaining), price),
    };
    units.push(unit);
    unbilled.push(amountOf(qty(u.unbilledCompleted), price));
    actualQty = actualQty.plus(u.actual);
    completedQty = completedQty.plus(u.completed);
    actualAmount = actualAmount.plus(amountOf(qty(u.actual), price));
    if (price != null) priced = true;
  }
  const completedAmount = sumMoney(units.map((u) => u.completed_amount));
  return {
    units,
    totals: {
      bid_amount: sumMoney(units.map((u) => u.bid_amount)),
      actual_amount: money(actualAmount),
      completed_amount: completedAmount,
      remaining_amount: sumMoney(units.map((u) => u.remaining_amount)),
      billed_amount: money(billedAmount),
      unbilled_completed_amount: sumMoney(unbilled),
      percent_complete: percentComplete({ priced, completedAmount, actualAmount, completedQty, actualQty }),
    },
  };
}

/**
 * "% Complete" (docs/product/billing.md §3): completed ÷ actual amount when any unit of the group
 * has a price, else completed ÷ actual quantity; the amounts summed from per-unit amounts rounded
 * to the cent. Shared with the dashboard, which reads these sums kept per job (decision 059).
 */
export function percentComplete(f: { priced: boolean; completedAmount: Big.BigSource; actualAmount: Big.BigSource; completedQty: Big.BigSource; actualQty: Big.BigSource }): number {
  return f.priced ? percent(new Big(f.completedAmount), new Big(f.actualAmount)) : percent(new Big(f.completedQty), new Big(f.actualQty));
}

function percent(part: Big, whole: Big): number {
  if (whole.lte(0)) return 0;
  return Number(part.times(100).div(whole).round(1, Big.roundHalfUp).toString());
}

/**
 * The headline figures of a job's production, in the order a billing clerk reads them
 * (docs/product/billing.md §3): what was bid, what changed since (actual − bid, may be negative),
 * what the tickets now say (actual), what is built, what remains; then what is billed and what is
 * built but not billed. Actual is Σ actual_qty × price of the reply's units, as computeProduction
 * counts it (the route's totals do not carry it).
 */
export function productionHeadline(
  totals: Omit<ProductionTotals, 'actual_amount' | 'percent_complete'>,
  units: readonly Pick<ProductionUnit, 'actual_qty' | 'unit_price'>[],
): [label: string, amount: Money][] {
  const actual = sumMoney(units.map((u) => amountOf(u.actual_qty, u.unit_price)));
  return [
    ['Bid', totals.bid_amount],
    ['Changes', money(new Big(actual).minus(totals.bid_amount))],
    ['Actual', actual],
    ['Completed', totals.completed_amount],
    ['Remaining', totals.remaining_amount],
    ['Billed', totals.billed_amount],
    ['Completed, not billed', totals.unbilled_completed_amount],
  ];
}
