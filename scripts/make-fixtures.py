#!/usr/bin/python3
"""Excel fixtures written by another program than ours (issue 3): openpyxl from Debian's
python3-openpyxl. Run with Debian's interpreter, from the repository root:

    /usr/bin/python3 scripts/make-fixtures.py

Outputs (committed) go to src/server/modules/excel/fixtures/. The tests read them as they are.
"""
import datetime
import os
import zipfile

from openpyxl import Workbook

OUT = os.path.join(os.path.dirname(__file__), '..', 'src', 'server', 'modules', 'excel', 'fixtures')
os.makedirs(OUT, exist_ok=True)

# Mixed case on purpose: the defaults match case-insensitively (SPEC §4).
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
    # Issue 3: an office workbook with more tabs than the two we read. openpyxl stores every
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


if __name__ == '__main__':
    good()
    too_few_job_columns()
    too_few_library_columns()
    bad_row()
    extra_tabs()
    legacy_xls()
    not_a_workbook()
    csv()
    print('fixtures written to', os.path.abspath(OUT))
