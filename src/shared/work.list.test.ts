import { describe, expect, it } from 'vitest';
import { sortWorkTickets } from './work.list';

type Row = Parameters<typeof sortWorkTickets>[0][number];
const row = (id: number, job_id: number, due_date: string | null, pole_name: string | null, job_number = `J-${job_id}`): Row => ({
  id,
  job_id,
  job_number,
  due_date,
  pole_name,
});
const ids = (rows: Row[]) => rows.map((r) => r.id);

describe('sortWorkTickets (My Work order)', () => {
  it('keeps each job together, jobs by their soonest due ticket, a job with no due date last', () => {
    const rows = [
      row(1, 10, '2030-05-01', 'P-1'),
      row(2, 20, null, 'P-1'),
      row(3, 30, '2030-06-01', 'P-1'),
      row(4, 10, '2030-07-01', 'P-2'),
      row(5, 30, '2030-01-01', 'P-2'),
    ];
    // Job 30 (soonest 01-01), job 10 (05-01), job 20 (none).
    expect(ids(sortWorkTickets(rows))).toEqual([5, 3, 1, 4, 2]);
  });

  it('within a job: due date, none last, then pole name as the job page sorts it, then id', () => {
    const rows = [
      row(1, 1, '2030-02-01', 'P-10'),
      row(2, 1, null, 'A'),
      row(3, 1, '2030-02-01', 'p-2'),
      row(4, 1, '2030-02-01', 'P-1'),
      row(5, 1, '2030-01-01', 'Z'),
      row(6, 1, '2030-02-01', 'P-1'),
      row(7, 1, '2030-02-01', null),
    ];
    expect(ids(sortWorkTickets(rows))).toEqual([5, 7, 4, 6, 3, 1, 2]);
  });

  it('breaks a tie between jobs by job number (J-2 before J-10), then id; never reorders its input', () => {
    const rows = [row(1, 7, '2030-01-01', 'A', 'J-10'), row(2, 9, '2030-01-01', 'A', 'J-2'), row(3, 8, '2030-01-01', 'A', 'J-2')];
    const copy = [...rows];
    expect(ids(sortWorkTickets(rows))).toEqual([3, 2, 1]);
    expect(rows).toEqual(copy);
  });

  it('an invalid due date counts as none', () => {
    expect(ids(sortWorkTickets([row(1, 1, 'soon', 'A'), row(2, 1, '2030-01-01', 'B')]))).toEqual([2, 1]);
  });
});
