#!/usr/bin/python3
"""Excel fixtures written by another program than ours (docs/product/imports.md): openpyxl from Debian's
python3-openpyxl. Run with Debian's interpreter, from the repository root:

    /usr/bin/python3 scripts/make-fixtures.py

Outputs (committed) go to src/server/test/fixtures/. The tests read them as they are.
"""
import datetime
import os
import zipfile

from openpyxl import Workbook

OUT = os.path.join(os.path.dirname(__file__), '..', 'src', 'server', 'test', 'fixtures')
os.makedirs(OUT, exist_ok=True)

# Mixed case on purpose: the defaults match case-insensitively (docs/product/imports.md §2).
TICKET_HEADERS = ['Work Order', 'POLE', 'Line', 'Pole ID', 'Line ID', 'Due Date', 'Lat', 'Long',
                  'Primary Voltage', 'Secondary Voltage', 'Arc Rating', 'Street', 'Unit',
                  'Description', 'Quantity']
LIBRARY_HEADERS = ['Family', 'Unit Code', 'Type', 'Action', 'UOM', 'Description', 'Notes']

# Rows of the tickets sheet. Excel row numbers: title = 1, blank = 2, header = 3, data from 4.
TICKET_ROWS = [
    ['WO-100', 'P-1', 'L-10', 'NG-1', 'LN-10', datetime.date(2027, 1, 15), 42.12345678, -71.98765432,
     '13.2kV', '240V', '8 cal', '1 Main St', 'U-100', 'Set pole', 1],
    ['WO-101', ' p-1 ', 'l-10', None, None, None, None, None, None, None, None, None, 'U-200',
     'Transfer wires', 3],
    ['WO-100', 'P-1', 'L-10', None, None, None, None, None, None, None, None, None, 'U-300', None, '2'],
    ['WO-200', 'P-2', 'L-10', 'NG-2', 'LN-10', '02/20/2027', '42.5', '-71.5', '13.2kV', '120V', '4 cal',
     '2 Main St', 'U-100', 'Set pole', 2],
    ['WO-300', 'P-3', 'L-11', 'NG-3', 'LN-11', 46100, 42.9999999, -71.0000001, None, None, None,
     '3 Elm St', 'U-400', 'Remove pole', 1.5],
]
LIBRARY_ROWS = [
    ['Poles', 'U-100', 'Install', 'Set', 'EA', 'Set wood pole', 'Class 2'],
    ['Wires', 'U-200', 'Transfer', 'Move', 'EA', 'Transfer conductors', ''],
    ['Hardware', 'U-300', 'Install', 'Add', 'EA', 'Crossarm', 'Old row, replaced below'],
    ['Poles', 'U-400', 'Remove', 'Pull', 'EA', 'Remove pole', None],
    ['Hardware', 'U-300', 'Install', 'Add', 'EA', 'Crossarm 10 ft', 'Last one wins'],
]


def tracking_sheet(ws, rows, headers=TICKET_HEADERS, title=True):
    if title:
        ws.append(['Demo Line Co - Job 4711 - Unit Tracking'])
        ws.merge_cells(start_row=1, start_column=1, end_row=1, end_column=len(headers))
        ws.append([])
    ws.append(headers)
    for r in rows:
        ws.append(r)
    for row in ws.iter_rows(min_row=ws.max_row - len(rows) + 1):
        for cell in row:
            if isinstance(cell.value, (datetime.date, datetime.datetime)):
                cell.number_format = 'mm/dd/yyyy'


def library_sheet(ws, rows, headers=LIBRARY_HEADERS):
    ws.append(headers)
    for r in rows:
        ws.append(r)


def good():
    wb = Workbook()
    readme = wb.active
    readme.title = 'Read Me'
    readme.append(['This workbook was written by openpyxl for the Linecrew tests.'])
    tracking_sheet(wb.create_sheet('Unit Tracking'), TICKET_ROWS)
    # A hyperlink cell: exceljs reads it as {text, hyperlink}; we want the text.
    ws = wb['Unit Tracking']
    ws['L8'].hyperlink = 'https://maps.example.com/?q=3+Elm+St'
    ws['L8'].value = '3 Elm St'
    library_sheet(wb.create_sheet('Unit Library'), LIBRARY_ROWS)
    wb.save(os.path.join(OUT, 'good.xlsx'))


def too_few_job_columns():
    wb = Workbook()
    tracking_sheet(wb.active, [['WO-1', 'P-1', 'L-1', 'U-100', 1]],
                   headers=['Work Order', 'Pole', 'Line', 'Unit', 'Quantity'], title=False)
    wb.active.title = 'Unit Tracking'
    library_sheet(wb.create_sheet('Unit Library'), LIBRARY_ROWS)
    wb.save(os.path.join(OUT, 'too-few-columns.xlsx'))


def too_few_library_columns():
    wb = Workbook()
    wb.active.title = 'Tickets'
    tracking_sheet(wb.active, TICKET_ROWS, title=False)
    library_sheet(wb.create_sheet('Units'), [r[:4] for r in LIBRARY_ROWS], headers=LIBRARY_HEADERS[:4])
    wb.save(os.path.join(OUT, 'too-few-library-columns.xlsx'))


def bad_row():
    # Data starts at Excel row 4; the bad quantity sits on row 14 and a row without pole on 15.
    rows = [['WO-%d' % i, 'P-%d' % i, 'L-1', None, None, None, None, None, None, None, None, None,
             'U-100', 'Set pole', 1] for i in range(10)]
    rows.append(['WO-X', 'P-X', 'L-1', None, None, None, None, None, None, None, None, None, 'U-100', 'Set pole', 'abc'])
    rows.append(['WO-Y', None, 'L-1', None, None, None, None, None, None, None, None, None, 'U-100', 'Set pole', 1])
    wb = Workbook()
    wb.active.title = 'Unit Tracking'
    tracking_sheet(wb.active, rows)
    library_sheet(wb.create_sheet('Unit Library'), LIBRARY_ROWS)
    wb.save(os.path.join(OUT, 'bad-row.xlsx'))


def extra_tabs():
    # docs/product/imports.md §4: an office workbook with more tabs than the two we read. openpyxl stores every
    # worksheet before xl/workbook.xml; exceljs's streaming reader lost the entries after the
    # last worksheet (the workbook model among them) in most reads of this file.
    wb = Workbook()
    wb.active.title = 'Read Me'
    wb.active.append(['Tabs after the library are notes for the crews; Linecrew reads two of them.'])
    tracking_sheet(wb.create_sheet('Unit Tracking'), TICKET_ROWS)
    library_sheet(wb.create_sheet('Unit Library'), LIBRARY_ROWS)
    for name in ('Crew', 'Trucks', 'Notes', 'Billing'):
        ws = wb.create_sheet(name)
        ws.append(['Name', 'Phone', 'Note'])
        ws.append(['%s 1' % name, '555-0100', 'kept for the office'])
    wb.save(os.path.join(OUT, 'extra-tabs.xlsx'))


def legacy_xls():
    # An OLE2 compound file starts with D0 CF 11 E0 A1 B1 1A E1; the rest is junk on purpose.
    with open(os.path.join(OUT, 'legacy.xls'), 'wb') as f:
        f.write(bytes([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) + b'\x00junk' * 200)


def not_a_workbook():
    # A zip that is not a workbook: exceljs cannot parse it.
    path = os.path.join(OUT, 'not-a-workbook.xlsx')
    with zipfile.ZipFile(path, 'w') as z:
        z.writestr('hello.txt', 'not a workbook')


def csv():
    lines = [
        ','.join(TICKET_HEADERS),
        'WO-1,P-1,L-1,,,01/15/2027,42.1,-71.1,,,,"1 Main St, Apt 2",U-100,"Set pole, 45 ft",1',
        'WO-2,P-1,L-1,,,,,,,,,,U-200,"Say ""hi""",2',
        'WO-3,P-2,L-1,,,2027-03-01,,,,,,,U-100,"two\nlines",3',
    ]
    with open(os.path.join(OUT, 'tickets.csv'), 'w', encoding='utf-8-sig', newline='') as f:
        f.write('\r\n'.join(lines) + '\r\n')


# ---------------------------------------------------------------------------------------------
# docs/product/imports.md (decision 033): workbooks as people and their tools really make them.

def hidden_sheets():
    # A hidden first sheet holding an older copy of the tickets, the visible tickets sheet named
    # "Tickets", a small hidden lists sheet between them, and the library.
    wb = Workbook()
    old = wb.active
    old.title = 'Old copy'
    tracking_sheet(old, [['WO-OLD', 'P-OLD', 'L-OLD', None, None, None, None, None, None, None, None,
                          None, 'U-100', 'Superseded', 9]], title=False)
    old.sheet_state = 'hidden'
    lists = wb.create_sheet('Lists')
    for v in ('EA', 'FT', 'LB'):
        lists.append([v])
    lists.sheet_state = 'hidden'
    tracking_sheet(wb.create_sheet('Tickets'), TICKET_ROWS, title=False)
    library_sheet(wb.create_sheet('Unit Library'), LIBRARY_ROWS)
    wb.save(os.path.join(OUT, 'hidden-sheets.xlsx'))


def uncached_formulas():
    # openpyxl saves a formula and no result: Excel computes it on opening, a reader cannot.
    wb = Workbook()
    wb.active.title = 'Unit Tracking'
    rows = [r[:] for r in TICKET_ROWS[:2]]
    rows[1][14] = '=1+2'
    tracking_sheet(wb.active, rows)
    wb['Unit Tracking']['P4'] = '=O4*2'  # an unmapped column: not read, not refused
    library_sheet(wb.create_sheet('Unit Library'), LIBRARY_ROWS)
    wb.save(os.path.join(OUT, 'uncached-formulas.xlsx'))


def formats_and_titles():
    # Numbers formatted as the office shows them, "Job: … Prepared: …" lines and a group-title
    # row above the header, and due dates typed as text with two-digit years.
    wb = Workbook()
    ws = wb.active
    ws.title = 'Unit Tracking'
    ws.append(['Job: 4711', None, 'Prepared: 11/20/2026'])
    ws.append(['Pole', 'Pole', 'Pole', None, None, 'Schedule', 'Location', 'Location', 'Power', 'Power',
               'Power', 'Location', 'Work', 'Work', 'Work'])
    ws.append(TICKET_HEADERS)
    ws.append(['WO-1', 7, 'L-1', 123, 4, '3/15/27', 42.5, -71.5, None, None, None, '1 Main St', 'U-100', 'Set pole', 2])
    ws.append(['WO-2', 8, 'L-1', 124, 4, '12/1/26', None, None, None, None, None, None, 'U-200', None, 1.5])
    for row in ws.iter_rows(min_row=4, max_row=5):
        row[1].number_format = '000'     # pole 7 shows 007
        row[3].number_format = '00000'   # pole id 123 shows 00123
        row[4].number_format = '"LN-"00'  # line id 4 shows LN-04
        row[14].number_format = '0.00'   # the quantity stays the number 2
    library_sheet(wb.create_sheet('Unit Library'), LIBRARY_ROWS)
    wb.save(os.path.join(OUT, 'formats-and-titles.xlsx'))


def date1904():
    # An old Mac workbook: date serials count from 1904.
    from openpyxl.utils.datetime import CALENDAR_MAC_1904
    wb = Workbook()
    wb.epoch = CALENDAR_MAC_1904
    wb.active.title = 'Unit Tracking'
    rows = [r[:] for r in TICKET_ROWS[:1]]
    rows[0][5] = datetime.date(2027, 1, 15)
    tracking_sheet(wb.active, rows)
    library_sheet(wb.create_sheet('Unit Library'), LIBRARY_ROWS)
    wb.save(os.path.join(OUT, 'date-1904.xlsx'))


def xlsxwriter_formulas():
    # xlsxwriter saves 0 as every formula's result and asks Excel to recalculate on opening.
    import xlsxwriter
    wb = xlsxwriter.Workbook(os.path.join(OUT, 'xlsxwriter-formulas.xlsx'))
    ws = wb.add_worksheet('Unit Tracking')
    ws.write_row(0, 0, TICKET_HEADERS)
    ws.write_row(1, 0, ['WO-1', 'P-1', 'L-1', None, None, None, None, None, None, None, None, None, 'U-100', 'Set pole'])
    ws.write_formula(1, 14, '=2+3')
    lib = wb.add_worksheet('Unit Library')
    lib.write_row(0, 0, LIBRARY_HEADERS)
    for i, r in enumerate(LIBRARY_ROWS):
        lib.write_row(i + 1, 0, r)
    wb.close()


def csv_windows_1252():
    # Excel's "CSV (Comma delimited)": Windows-1252, CRLF, no BOM.
    lines = [
        ','.join(TICKET_HEADERS),
        'WO-1,P-1,L-1,,,01/15/2027,42.1,-71.1,,,,Rue Molière 5,U-100,Poteau – côté nord,1',
        'WO-2,P-2,L-1,,,3/15/27,,,,,,Øster Allé,U-200,Transfer “A”,2',
    ]
    with open(os.path.join(OUT, 'tickets-cp1252.csv'), 'w', encoding='cp1252', newline='') as f:
        f.write('\r\n'.join(lines) + '\r\n')


def csv_semicolon():
    # Excel where the comma is the decimal mark: ';' between fields, '3,500' is three and a half.
    lines = [
        ';'.join(TICKET_HEADERS),
        'WO-1;P-1;L-1;;;;;;;;;1 Main St;U-100;Set pole;3,500',
        'WO-2;P-2;L-1;;;;42,124;-71,5;;;;;U-200;;0,250',
        'WO-3;P-3;L-1;;;;;;;;;;U-100;;1.234,5',
    ]
    with open(os.path.join(OUT, 'tickets-semicolon.csv'), 'w', encoding='utf-8-sig', newline='') as f:
        f.write('\r\n'.join(lines) + '\r\n')


def libreoffice():
    # LibreOffice's own files: a workbook with formulas and their saved results, and the same
    # tickets as an OpenDocument spreadsheet (refused, naming its kind).
    import shutil
    import subprocess
    import tempfile
    soffice = shutil.which('soffice')
    if not soffice:
        print('soffice not found: LibreOffice fixtures kept as they are')
        return
    tmp = tempfile.mkdtemp()
    src = os.path.join(tmp, 'libreoffice.csv')
    with open(src, 'w', encoding='utf-8', newline='') as f:
        f.write(','.join(TICKET_HEADERS) + '\n')
        f.write('WO-1,P-1,L-1,,,01/15/2027,42.1,-71.1,,,,1 Main St,U-100,Set pole,=1+2\n')
        f.write('WO-2,P-2,L-1,,,,,,,,,,U-200,,4\n')
    env = dict(os.environ, HOME=tmp)
    for ext, name in (('xlsx', 'libreoffice.xlsx'), ('ods', 'libreoffice.ods')):
        subprocess.run([soffice, '--headless', '--infilter=CSV:44,34,76,1,,1033,false,true,false,false,false,-1',
                        '--convert-to', ext, '--outdir', tmp, src], check=True, env=env, capture_output=True)
        shutil.copy(os.path.join(tmp, 'libreoffice.' + ext), os.path.join(OUT, name))
    shutil.rmtree(tmp)


if __name__ == '__main__':
    good()
    too_few_job_columns()
    too_few_library_columns()
    bad_row()
    extra_tabs()
    legacy_xls()
    not_a_workbook()
    csv()
    hidden_sheets()
    uncached_formulas()
    formats_and_titles()
    date1904()
    xlsxwriter_formulas()
    csv_windows_1252()
    csv_semicolon()
    libreoffice()
    print('fixtures written to', os.path.abspath(OUT))
