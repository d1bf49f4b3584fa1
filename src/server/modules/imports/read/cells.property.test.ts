import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cellNumber, shownText } from './cells';
import { parseWorkbook } from './workbook';

/**
 * Property (docs/product/imports.md §6): random cells written by openpyxl (Debian's python3-openpyxl) read back
 * through the import as a spreadsheet shows them (text targets) and as their numbers (numeric
 * targets). Python computes what each cell shows on its own, from the value and the format.
 */
const SCRIPT = String.raw`
import json, random, sys
from openpyxl import Workbook
seed, out = int(sys.argv[1]), sys.argv[2]
rnd = random.Random(seed)
wb = Workbook(); ws = wb.active; ws.title = 'Unit Tracking'
ws.append(['Pole', 'Line', 'Unit', 'Quantity', 'Street'])
expected = []
def text():
    alphabet = 'ABCxyz0123456789-_/ éøЖ'
    s = ''.join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 12))).strip()
    return s or 'x'
for r in range(2, 302):
    kind = rnd.choice(['text', 'zeros', 'int', 'general', 'fixed2', 'thousands', 'textfmt', 'leadingzero'])
    fmt, shown, number = 'General', None, None
    if kind == 'text':
        value = text(); shown = value
    elif kind == 'leadingzero':
        value = '0' * rnd.randint(1, 3) + str(rnd.randint(1, 999)); shown = value
    elif kind == 'zeros':
        value = rnd.randint(0, 99999); fmt = '00000'; shown = '%05d' % value; number = value
    elif kind == 'int':
        value = rnd.randint(-10**9, 10**9); shown = str(value); number = value
    elif kind == 'general':
        value = rnd.randint(-10**6, 10**6) / 1000; shown = repr(value).rstrip('0').rstrip('.') if '.' in repr(value) else repr(value); number = value
    elif kind == 'fixed2':
        value = rnd.randint(0, 10**6) / 100; fmt = '0.00'; shown = '%.2f' % value; number = value
    elif kind == 'thousands':
        value = rnd.randint(0, 10**9); fmt = '#,##0'; shown = '{:,}'.format(value); number = value
    elif kind == 'textfmt':
        value = rnd.randint(0, 10**6); fmt = '@'; shown = str(value); number = value
    ws.cell(row=r, column=1, value='P-%d' % r)
    ws.cell(row=r, column=2, value='L-1')
    ws.cell(row=r, column=3, value='U-1')
    c = ws.cell(row=r, column=4, value=value); c.number_format = fmt
    expected.append({'row': r, 'kind': kind, 'shown': shown, 'number': number})
wb.save(out + '.xlsx')
json.dump(expected, open(out + '.json', 'w'))
`;

const dir = mkdtempSync(path.join(tmpdir(), 'linecrew-property-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cells written by openpyxl read back as a spreadsheet shows them', () => {
  for (const seed of [1, 2, 3]) {
    it(`300 random cells, seed ${seed}`, async () => {
      const out = path.join(dir, `cells-${seed}`);
      execFileSync('/usr/bin/python3', ['-c', SCRIPT, String(seed), out]);
      const expected = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as { row: number; kind: string; shown: string; number: number | null }[];
      const parsed = await parseWorkbook(readFileSync(`${out}.xlsx`));
      const byRow = new Map(parsed.tickets.rows.map((r) => [r.row, r.cells[3]]));
      const got = expected.map((e) => {
        const cell = byRow.get(e.row);
        return { row: e.row, kind: e.kind, shown: shownText(cell), number: e.number === null ? null : cellNumber(cell) };
      });
      expect(got).toEqual(expected);
    });
  }
});
