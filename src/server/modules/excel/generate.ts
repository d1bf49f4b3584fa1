import ExcelJS from 'exceljs';

/**
 * Generated ticket workbooks for tests and `bench/excel-import.ts` (the committed fixtures are
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

/** `rows` ticket rows, `tasksPerPole` consecutive rows per pole, over 100 unit codes. */
export async function generateTicketWorkbook(rows: number, { tasksPerPole = 4, units = 100 } = {}): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Unit Tracking');
  ws.addRow(['Generated unit tracking']);
  ws.addRow(GEN_TICKET_HEADERS);
  for (let i = 0; i < rows; i++) {
    const pole = Math.floor(i / tasksPerPole);
    ws.addRow([
      `WO-${1000 + (pole % 50)}`,
      `P-${pole}`,
      `L-${pole % 20}`,
      `NG-${pole}`,
      `LN-${pole % 20}`,
      new Date(Date.UTC(2027, pole % 12, 1 + (pole % 28))),
      42 + (pole % 1000) / 1234.5678901,
      -71 - (pole % 1000) / 2345.6789012,
      '13.2kV',
      '240V',
      '8 cal',
      `${pole} Main St`,
      `U-${i % units}`,
      `Unit ${i % units} work`,
      1 + (i % 5),
    ]);
  }
  const lib = wb.addWorksheet('Unit Library');
  lib.addRow(GEN_LIBRARY_HEADERS);
  for (let u = 0; u < units; u++) lib.addRow(['Family', `U-${u}`, 'Install', 'Set', 'EA', `Unit ${u}`, '']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
