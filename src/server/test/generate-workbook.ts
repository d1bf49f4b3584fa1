import ExcelJS from 'exceljs';

/**
 * Generated ticket workbooks for tests and the bench (`bench/data.ts`, `bench/investigations/excel-import.ts`; the committed fixtures are
 * made by openpyxl instead, so that a workbook from another program is tested too).
 */

const GEN_TICKET_HEADERS = [
  'Work Order',
  'Pole',
  'Line',
  'Pole ID',
  'Line ID',
  'Due Date',
  'Lat',
  'Long',
  'Primary Voltage',
  'Secondary Voltage',
  'Arc Rating',
  'Street',
  'Unit',
  'Description',
  'Quantity',
];
const GEN_LIBRARY_HEADERS = ['Family', 'Unit Code', 'Type', 'Action', 'UOM', 'Description', 'Notes'];

export interface GeneratedWorkbookOptions {
  tasksPerPole?: number;
  units?: number;
  /**
   * A pole's rows spread over the whole sheet (row i is pole i mod poles) instead of one after
   * the other, each with its own work order, and its Pole ID, street and due date only on its
   * second, third and fourth rows: what later rows of a ticket fill and add.
   */
  spread?: boolean;
  /** Changes the cells of data row i (0-based) before it is written. */
  edit?: (i: number, cells: unknown[]) => void;
}

/** `rows` ticket rows, `tasksPerPole` consecutive rows per pole, over 100 unit codes. */
export async function generateTicketWorkbook(rows: number, { tasksPerPole = 4, units = 100, spread = false, edit }: GeneratedWorkbookOptions = {}): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Unit Tracking');
  ws.addRow(['Generated unit tracking']);
  ws.addRow(GEN_TICKET_HEADERS);
  const poles = Math.ceil(rows / tasksPerPole);
  for (let i = 0; i < rows; i++) {
    const pole = spread ? i % poles : Math.floor(i / tasksPerPole);
    const nth = spread ? Math.floor(i / poles) : i % tasksPerPole;
    const only = (n: number, v: unknown) => (!spread || nth === n ? v : null);
    const cells = [
      spread ? `WO-${pole}-${nth}` : `WO-${1000 + (pole % 50)}`,
      `P-${pole}`,
      `L-${pole % 20}`,
      only(1, `NG-${pole}`),
      `LN-${pole % 20}`,
      only(3, new Date(Date.UTC(2027, pole % 12, 1 + (pole % 28)))),
      42 + (pole % 1000) / 1234.5678901,
      -71 - (pole % 1000) / 2345.6789012,
      '13.2kV',
      '240V',
      '8 cal',
      only(2, `${pole} Main St`),
      `U-${i % units}`,
      `Unit ${i % units} work`,
      1 + (i % 5),
    ];
    edit?.(i, cells);
    ws.addRow(cells);
  }
  const lib = wb.addWorksheet('Unit Library');
  lib.addRow(GEN_LIBRARY_HEADERS);
  for (let u = 0; u < units; u++) lib.addRow(['Family', `U-${u}`, 'Install', 'Set', 'EA', `Unit ${u}`, '']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
