import { describe, expect, it } from 'vitest';
import type { WorkItem } from './api/work';
import { sortWorkTickets } from '../../../shared/work.list';
import { groupWork } from './workList';

const item = (id: number, job: number, due: string | null, over: Partial<WorkItem> = {}): WorkItem =>
  ({ id, job_id: job, job_number: `J-${job}`, pole_name: `P${id}`, line_name: 'L1', street_address: `${id} Main St`, due_date: due, status: 'Pending', work_orders: [], unit_codes: [], ...over }) as WorkItem;

describe('My Work list', () => {
  const items = [item(1, 10, '2026-12-05'), item(2, 20, '2026-11-20'), item(3, 10, null), item(4, 10, '2026-11-30'), item(5, 20, '2026-12-01')];

  it("groups the server's work order by job: the job due soonest first, each job soonest due first and undated last", () => {
    const groups = groupWork(sortWorkTickets(items), '', '2026-11-23');
    expect(groups.map((g) => [g.jobNumber, g.tickets.map((t) => t.id), g.overdue])).toEqual([
      ['J-20', [2, 5], 1],
      ['J-10', [4, 1, 3], 0],
    ]);
  });

  it('searches pole, line, street and job number, every word somewhere', () => {
    expect(groupWork(items, 'j-10 main 4', '2026-11-23').flatMap((g) => g.tickets.map((t) => t.id))).toEqual([4]);
    expect(groupWork(items, 'P5', '2026-11-23').flatMap((g) => g.tickets.map((t) => t.id))).toEqual([5]);
    expect(groupWork(items, 'nowhere', '2026-11-23')).toEqual([]);
  });

  it('finds a ticket by its work order or a unit code (docs/product/rules.md §4.1: WO-41871 found nothing)', () => {
    const orders = [
      item(1, 10, null, { work_orders: ['WO-41871'], unit_codes: ['ANC-8'] }),
      item(2, 10, null, { work_orders: ['WO-41872', 'WO-41873'], unit_codes: ['XF-3', 'ANC-8'] }),
      item(3, 20, null, { work_orders: [], unit_codes: [] }),
    ];
    const ids = (search: string) => groupWork(orders, search, '2026-11-23').flatMap((g) => g.tickets.map((t) => t.id));
    expect(ids('WO-41871')).toEqual([1]);
    expect(ids('wo-41873 xf-3')).toEqual([2]);
    expect(ids('anc-8')).toEqual([1, 2]);
  });
});
