import { describe, expect, it } from 'vitest';
import { computeProduction, productionHeadline, type ProductionTask } from './production';

/** computeProduction on small jobs whose figures are worked out by hand in the comments. */

const task = (over: Partial<ProductionTask> & Pick<ProductionTask, 'code'>): ProductionTask => ({
  description: `Unit ${over.code}`,
  uom: 'EA',
  unit_price: null,
  init_qty: 0,
  additional_qty: 0,
  complete: false,
  billed: false,
  ...over,
});

describe('computeProduction', () => {
  it('sums quantities exactly: 0.1 + 0.2 is 0.3, and 0.3 × 10.00 is 3.00', () => {
    const { units, totals } = computeProduction([
      task({ code: 'W', unit_price: '10.00', init_qty: 0.1, complete: true }),
      task({ code: 'W', unit_price: '10.00', init_qty: 0.2 }),
    ]);
    expect(units).toEqual([
      {
        code: 'W',
        description: 'Unit W',
        uom: 'EA',
        unit_price: '10.00',
        bid_qty: 0.3,
        actual_qty: 0.3,
        completed_qty: 0.1,
        remaining_qty: 0.2,
        bid_amount: '3.00',
        completed_amount: '1.00',
        remaining_amount: '2.00',
      },
    ]);
    // 1.00 of 3.00 = 33.33… → 33.3
    expect(totals).toMatchObject({ bid_amount: '3.00', actual_amount: '3.00', completed_amount: '1.00', remaining_amount: '2.00', percent_complete: 33.3 });
  });

  it('counts a negative additional_qty in the actual quantity, not in the bid', () => {
    // bid 5, actual 5 − 2 = 3; done: 3 of 3 on the one complete ticket; 3 × 2.50 = 7.50
    const { units, totals } = computeProduction([task({ code: 'X', unit_price: '2.50', init_qty: 5, additional_qty: -2, complete: true })]);
    expect(units[0]).toMatchObject({ bid_qty: 5, actual_qty: 3, completed_qty: 3, remaining_qty: 0, bid_amount: '12.50', completed_amount: '7.50', remaining_amount: '0.00' });
    expect(totals.percent_complete).toBe(100);
  });

  it('counts an unpriced unit as 0 and measures % by amount when another unit has a price', () => {
    const { units, totals } = computeProduction([
      // A: 4 × 25.00 = 100.00 actual, 1 × 25.00 = 25.00 done
      task({ code: 'A', unit_price: '25.00', init_qty: 1, complete: true }),
      task({ code: 'A', unit_price: '25.00', init_qty: 3 }),
      // B: no price: its 10 done count nothing, though they are all of B
      task({ code: 'B', init_qty: 10, complete: true }),
    ]);
    expect(units.map((u) => u.code)).toEqual(['A', 'B']); // sorted by code
    expect(units[1]).toMatchObject({ unit_price: null, actual_qty: 10, completed_qty: 10, bid_amount: '0.00', completed_amount: '0.00', remaining_amount: '0.00' });
    expect(totals).toMatchObject({ bid_amount: '100.00', completed_amount: '25.00', remaining_amount: '75.00', percent_complete: 25 });
  });

  it('measures % by quantity when no unit of the job has a price', () => {
    // 2 + 1 done of 2 + 1 + 3 + 0.5 = 6.5 → 46.15… → 46.2
    const { totals } = computeProduction([
      task({ code: 'A', init_qty: 2, complete: true }),
      task({ code: 'B', init_qty: 1, complete: true }),
      task({ code: 'B', init_qty: 3 }),
      task({ code: 'C', init_qty: 0, additional_qty: 0.5 }),
    ]);
    expect(totals).toMatchObject({ bid_amount: '0.00', completed_amount: '0.00', remaining_amount: '0.00', unbilled_completed_amount: '0.00', percent_complete: 46.2 });
  });

  it('splits completed work into billed and unbilled, and takes the billed amount as given', () => {
    // done: 2 × 12.50 = 25.00 billed + 1 × 12.50 = 12.50 not yet; 1 more pending
    const { totals } = computeProduction(
      [
        task({ code: 'P', unit_price: '12.50', init_qty: 2, complete: true, billed: true }),
        task({ code: 'P', unit_price: '12.50', init_qty: 1, complete: true }),
        task({ code: 'P', unit_price: '12.50', init_qty: 1 }),
      ],
      '25',
    );
    expect(totals).toMatchObject({ completed_amount: '37.50', billed_amount: '25.00', unbilled_completed_amount: '12.50', remaining_amount: '12.50', percent_complete: 75 });
  });

  it('rounds each amount to the cent, half up', () => {
    // 0.5 × 0.34 = 0.17; 0.5 × 0.01 = 0.005 → 0.01 (half up, not to the even 0.00)
    const { units } = computeProduction([task({ code: 'R', unit_price: '0.34', init_qty: 0.5 }), task({ code: 'S', unit_price: '0.01', init_qty: 0.5 })]);
    expect(units.map((u) => u.bid_amount)).toEqual(['0.17', '0.01']);
  });

  it('is all zeros for a job without tasks, and 0 % when the whole is not positive', () => {
    expect(computeProduction([])).toEqual({
      units: [],
      totals: { bid_amount: '0.00', actual_amount: '0.00', completed_amount: '0.00', remaining_amount: '0.00', billed_amount: '0.00', unbilled_completed_amount: '0.00', percent_complete: 0 },
    });
    expect(computeProduction([task({ code: 'Z', init_qty: 1, additional_qty: -1, complete: true })]).totals.percent_complete).toBe(0);
  });
});

describe('productionHeadline (docs/product/billing.md §3)', () => {
  it('reads Bid, Changes, Actual, Completed, Remaining, then Billed and Completed, not billed', () => {
    // Bid 4 × 10.00 = 40.00; a change of −1 makes actual 30.00; one of three built: 10.00.
    const { units, totals } = computeProduction([
      task({ code: 'A', unit_price: '10.00', init_qty: 2, additional_qty: -1, complete: true }),
      task({ code: 'A', unit_price: '10.00', init_qty: 2 }),
    ]);
    expect(productionHeadline(totals, units)).toEqual([
      ['Bid', '40.00'],
      ['Changes', '-10.00'],
      ['Actual', '30.00'],
      ['Completed', '10.00'],
      ['Remaining', '20.00'],
      ['Billed', '0.00'],
      ['Completed, not billed', '10.00'],
    ]);
  });
});
