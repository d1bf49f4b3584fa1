import ExcelJS from 'exceljs';
import pdfmake from 'pdfmake';
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import { isoToUs } from '../../../shared/dates';
import type { Invoice } from '../../../shared/invoices.schemas';
import { MSG } from '../../../shared/messages';
import { formatMoney } from '../../../shared/money';
import { drawable, PDF_FONT_FILES } from '../../pdf/fonts';

/**
 * The downloads of an invoice (docs/product/billing.md §4): an .xlsx whose figures are numbers (so the office
 * can sum and re-price them) and a printable PDF. Both are built from the frozen lines only.
 */

export interface InvoiceFileInput {
  invoice: Invoice;
  company: { name: string };
}

/** Excel's format of an amount in the invoice's currency. */
const currencyFormat = (currency: string) => (currency === 'USD' ? '"$"#,##0.00' : `"${currency.replace(/"/g, '')} "#,##0.00`);

/**
 * The invoice's day (its `invoice_date`, the company's calendar day) as a spreadsheet date: a Date
 * whose UTC fields are that day, since exceljs writes a Date's UTC time and a cell has no zone.
 */
const excelDay = (isoDay: string) => new Date(`${isoDay}T00:00:00Z`);

const HEADERS = ['Pole', 'Line', 'Work Order', 'Code', 'Description', 'UOM', 'Quantity', 'Unit Price', 'Amount'] as const;

export async function invoiceXlsx({ invoice, company }: InvoiceFileInput): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.creator = 'Linecrew';
  book.created = new Date(invoice.created_at);
  const sheet = book.addWorksheet('Invoice');
  const money = currencyFormat(invoice.currency);

  sheet.addRow(['Company', company.name]);
  sheet.addRow(['Invoice', invoice.number]);
  // A real date (a number with a date format), so the office can sort and filter by it.
  sheet.addRow(['Date', excelDay(invoice.invoice_date)]).getCell(2).numFmt = 'mm/dd/yyyy';
  sheet.addRow(['Currency', invoice.currency]);
  sheet.addRow([]);
  const bill = invoice.bill_to;
  sheet.addRow(['Bill to', bill.utility]).font = { bold: true };
  if (bill.address) sheet.addRow(['Address', bill.address]);
  sheet.addRow(['Job', bill.job_number]);
  sheet.addRow(['Work orders', bill.work_orders.join(', ')]);
  sheet.addRow([]);
  const header = sheet.addRow([...HEADERS]);
  header.font = { bold: true };
  const first = header.number + 1;

  for (const l of invoice.lines) {
    // Numbers as numbers: a price of "12.50" is the number 12.5 shown with the currency format.
    const row = sheet.addRow([
      l.pole_name,
      l.line_name,
      l.work_order,
      l.code,
      l.description,
      l.uom,
      l.quantity,
      l.unit_price == null ? null : Number(l.unit_price),
      Number(l.amount),
    ]);
    row.getCell(8).numFmt = money;
    row.getCell(9).numFmt = money;
  }
  const last = sheet.lastRow!.number;
  const total = sheet.addRow([]);
  total.getCell(8).value = 'Total';
  // A formula WITH its result: Excel recalculates it, and readers that do not (openpyxl, exceljs)
  // read the cached value, which is the invoice's exact total.
  total.getCell(9).value =
    invoice.lines.length > 0 ? { formula: `SUM(I${first}:I${last})`, result: Number(invoice.total) } : Number(invoice.total);
  total.getCell(9).numFmt = money;
  total.font = { bold: true };

  const widths = [14, 12, 16, 14, 36, 8, 10, 14, 16];
  widths.forEach((w, i) => (sheet.getColumn(i + 1).width = w));
  return Buffer.from(await book.xlsx.writeBuffer());
}

// pdfmake on Node with DejaVu Sans embedded (pdf/fonts.ts, decision 048): Latin Extended, Greek and
// Cyrillic print as written. Nothing in an invoice is a URL or a file, so both access policies
// refuse all but the font files.
pdfmake.setFonts({ DejaVuSans: PDF_FONT_FILES });
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((p: string) => (Object.values(PDF_FONT_FILES) as string[]).includes(p));

export async function invoicePdf({ invoice, company }: InvoiceFileInput): Promise<Buffer> {
  let undrawable = false;
  const p = (s: string) => drawable(s, () => (undrawable = true));
  const fmt = (v: string | null) => (v == null ? '—' : formatMoney(v, invoice.currency));
  const body: TableCell[][] = [
    HEADERS.map((h) => ({ text: h, bold: true, alignment: ['Quantity', 'Unit Price', 'Amount'].includes(h) ? 'right' : 'left' })) as TableCell[],
    ...invoice.lines.map((l): TableCell[] => [
      p(l.pole_name),
      p(l.line_name),
      p(l.work_order),
      p(l.code),
      p(l.description),
      p(l.uom),
      { text: String(l.quantity), alignment: 'right' },
      { text: l.unit_price == null ? 'no price' : fmt(l.unit_price), alignment: 'right' },
      { text: fmt(l.amount), alignment: 'right' },
    ]),
    [{ text: 'Total', bold: true, colSpan: 8, alignment: 'right' }, '', '', '', '', '', '', '', { text: fmt(invoice.total), bold: true, alignment: 'right' }],
  ];
  const bill = invoice.bill_to;
  const labelled = (label: string, value: string) => ({ text: [{ text: `${label} `, bold: true }, p(value)] });
  const content: Content[] = [
    { text: p(company.name), style: 'title' },
    {
      columns: [
        labelled('Invoice', invoice.number),
        labelled('Job', invoice.job_number),
        labelled('Date', isoToUs(invoice.invoice_date)),
      ],
      margin: [0, 4, 0, 8],
    },
    {
      stack: [
        { text: 'Bill to', bold: true, fontSize: 9 },
        { text: p(bill.utility), fontSize: 10 },
        ...(bill.address ? [{ text: p(bill.address) }] : []),
        labelled('Job', bill.job_number),
        labelled('Work orders', bill.work_orders.length ? bill.work_orders.join(', ') : '—'),
      ],
      margin: [0, 0, 0, 12],
    },
    {
      table: { headerRows: 1, widths: ['auto', 'auto', 'auto', 'auto', '*', 'auto', 'auto', 'auto', 'auto'], body, dontBreakRows: true },
      layout: 'lightHorizontalLines',
    },
    { text: `${invoice.ticket_count} ticket${invoice.ticket_count === 1 ? '' : 's'}, ${invoice.line_count} line${invoice.line_count === 1 ? '' : 's'}. Currency ${invoice.currency}.`, margin: [0, 12, 0, 0], fontSize: 8 },
  ];
  // Said in the PDF itself whenever a character could not be drawn (decision 048).
  if (undrawable) content.push({ text: MSG.pdfUndrawable, margin: [0, 6, 0, 0], fontSize: 8, italics: true });
  const doc: TDocumentDefinitions = {
    info: { title: `${invoice.number} ${invoice.job_number}`, creator: 'Linecrew' },
    pageSize: 'LETTER',
    pageOrientation: 'landscape',
    pageMargins: [36, 36, 36, 42],
    defaultStyle: { font: 'DejaVuSans', fontSize: 8 },
    styles: { title: { fontSize: 16, bold: true } },
    footer: (page, pages) => ({ text: `${invoice.number} — page ${page} of ${pages}`, alignment: 'center', fontSize: 8, margin: [0, 12, 0, 0] }),
    content,
  };
  return Buffer.from(await pdfmake.createPdf(doc).getBuffer());
}
