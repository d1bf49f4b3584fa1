import ExcelJS from 'exceljs';
import pdfmake from 'pdfmake';
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import type { Invoice } from '../../../shared/invoices.schemas';
import { formatMoney } from '../../../shared/money';

/**
 * The downloads of an invoice (docs/product/billing.md §4): an .xlsx whose figures are numbers (so the office
 * can sum and re-price them) and a printable PDF. Both are built from the frozen lines only.
 */

export interface InvoiceFileInput {
  invoice: Invoice;
  company: { name: string; timeZone: string };
}

/** The invoice's day in the company's time zone, MM/DD/YYYY like every date a person reads here. */
export function invoiceDate(createdAt: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(createdAt));
}

/** Excel's format of an amount in the invoice's currency. */
const currencyFormat = (currency: string) => (currency === 'USD' ? '"$"#,##0.00' : `"${currency.replace(/"/g, '')} "#,##0.00`);

const HEADERS = ['Pole', 'Line', 'Work Order', 'Code', 'Description', 'UOM', 'Quantity', 'Unit Price', 'Amount'] as const;

export async function invoiceXlsx({ invoice, company }: InvoiceFileInput): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.creator = 'Linecrew';
  book.created = new Date(invoice.created_at);
  const sheet = book.addWorksheet('Invoice');
  const money = currencyFormat(invoice.currency);

  sheet.addRow(['Company', company.name]);
  sheet.addRow(['Job', invoice.job_number]);
  sheet.addRow(['Invoice', invoice.number]);
  sheet.addRow(['Date', invoiceDate(invoice.created_at, company.timeZone)]);
  sheet.addRow(['Currency', invoice.currency]);
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

// pdfmake on Node with the standard PDF fonts (Helvetica ships in every PDF reader): no font
// files to bundle. Nothing in an invoice is a URL or a file, so both access policies refuse all
// but the font metrics pdfkit reads for Helvetica.
const FONT = { normal: 'Helvetica', bold: 'Helvetica-Bold', italics: 'Helvetica-Oblique', bolditalics: 'Helvetica-BoldOblique' };
pdfmake.setFonts({ Helvetica: FONT });
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((p: string) => Object.values(FONT).includes(p));

/** The standard fonts draw WinAnsi only: other characters would print as nonsense, so '?' instead. */
const printable = (s: string) => s.replace(/[^\x20-\x7e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u20ac]/g, '?');

export async function invoicePdf({ invoice, company }: InvoiceFileInput): Promise<Buffer> {
  const fmt = (v: string | null) => (v == null ? '—' : formatMoney(v, invoice.currency).replace('−', '-'));
  const body: TableCell[][] = [
    HEADERS.map((h) => ({ text: h, bold: true, alignment: ['Quantity', 'Unit Price', 'Amount'].includes(h) ? 'right' : 'left' })) as TableCell[],
    ...invoice.lines.map((l): TableCell[] => [
      printable(l.pole_name),
      printable(l.line_name),
      printable(l.work_order),
      printable(l.code),
      printable(l.description),
      printable(l.uom),
      { text: String(l.quantity), alignment: 'right' },
      { text: l.unit_price == null ? 'no price' : fmt(l.unit_price), alignment: 'right' },
      { text: fmt(l.amount), alignment: 'right' },
    ]),
    [{ text: 'Total', bold: true, colSpan: 8, alignment: 'right' }, '', '', '', '', '', '', '', { text: fmt(invoice.total), bold: true, alignment: 'right' }],
  ];
  const content: Content[] = [
    { text: printable(company.name), style: 'title' },
    {
      columns: [
        { text: [{ text: 'Invoice ', bold: true }, invoice.number] },
        { text: [{ text: 'Job ', bold: true }, printable(invoice.job_number)] },
        { text: [{ text: 'Date ', bold: true }, invoiceDate(invoice.created_at, company.timeZone)] },
      ],
      margin: [0, 4, 0, 12],
    },
    {
      table: { headerRows: 1, widths: ['auto', 'auto', 'auto', 'auto', '*', 'auto', 'auto', 'auto', 'auto'], body, dontBreakRows: true },
      layout: 'lightHorizontalLines',
    },
    { text: `${invoice.ticket_count} ticket${invoice.ticket_count === 1 ? '' : 's'}, ${invoice.line_count} line${invoice.line_count === 1 ? '' : 's'}. Currency ${invoice.currency}.`, margin: [0, 12, 0, 0], fontSize: 8 },
  ];
  const doc: TDocumentDefinitions = {
    info: { title: `${invoice.number} ${invoice.job_number}`, creator: 'Linecrew' },
    pageSize: 'LETTER',
    pageOrientation: 'landscape',
    pageMargins: [36, 36, 36, 42],
    defaultStyle: { font: 'Helvetica', fontSize: 8 },
    styles: { title: { fontSize: 16, bold: true } },
    footer: (page, pages) => ({ text: `${invoice.number} — page ${page} of ${pages}`, alignment: 'center', fontSize: 8, margin: [0, 12, 0, 0] }),
    content,
  };
  return Buffer.from(await pdfmake.createPdf(doc).getBuffer());
}
