import { useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileInvoice, IconFileSpreadsheet, IconFileTypePdf, IconFileZip, IconPhotoCheck } from '@tabler/icons-react';
import { Spinner } from '../../components/Spinner';
import { isoToUs } from '../../../shared/dates';
import { invoiceFileName, type InvoiceSummary } from '../../../shared/invoices.schemas';
import { MSG } from '../../../shared/messages';
import { formatMoney } from '../../../shared/money';
import { can } from '../../../shared/permissions';
import { useSession } from '../../api/session';
import { useJobInvoices } from './api/jobInvoices';
import { evidenceUrl, useInvoiceDownload } from './api/invoiceFile';
import { CreateInvoiceModal } from './CreateInvoiceModal';

/**
 * The job's invoices (docs/product/billing.md §4), on the job page for roles 1–3: number, date, tickets, total,
 * the XLSX / PDF downloads and the evidence pack (PDF, ZIP); roles 1–2 also "Create invoice".
 * Roles 4–6 see none of it. The evidence files are plain links (the session cookie signs them): the
 * browser streams a ZIP of thousands of photos to disk instead of holding it in this page.
 */
export default function InvoicesSection({ jobId }: { jobId: number }) {
  const { claims } = useSession();
  const canRead = can(claims?.roleId, 'billing.read');
  const canWrite = can(claims?.roleId, 'billing.write');
  const list = useJobInvoices(jobId, canRead);
  const download = useInvoiceDownload();
  const [creating, setCreating] = useState(false);
  if (!canRead) return null;

  const get = (invoice: InvoiceSummary, kind: 'xlsx' | 'pdf') =>
    download.mutate(
      { invoice, kind },
      { onError: (err) => notifications.show({ color: 'red', title: `${invoice.number} was not downloaded`, message: err instanceof Error ? err.message : MSG.generic }) },
    );
  const busy = (invoice: InvoiceSummary, kind: 'xlsx' | 'pdf') => download.isPending && download.variables?.invoice.id === invoice.id && download.variables.kind === kind;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="invoices-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} id="invoices-title" size="h4">
            Invoices
          </Title>
          {canWrite && (
            <Button size="compact-sm" leftSection={<IconFileInvoice size={16} />} onClick={() => setCreating(true)}>
              Create invoice
            </Button>
          )}
        </Group>
        {list.isPending ? (
          <Spinner size="sm" label="Loading invoices" />
        ) : list.isError ? (
          <Alert color="red" role="alert">
            {list.error.message}
          </Alert>
        ) : list.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            No invoices yet.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing={4} striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Invoice</Table.Th>
                  <Table.Th>Date</Table.Th>
                  <Table.Th style={{ textAlign: 'right' }}>Tickets</Table.Th>
                  <Table.Th style={{ textAlign: 'right' }}>Total</Table.Th>
                  <Table.Th>Download</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.map((inv) => (
                  <Table.Tr key={inv.id} data-testid="invoice-row">
                    <Table.Td fw={600}>{inv.number}</Table.Td>
                    {/* The company's calendar day, as the PDF and XLSX print it (not this browser's zone). */}
                    <Table.Td>{isoToUs(inv.invoice_date)}</Table.Td>
                    <Table.Td style={{ textAlign: 'right' }}>{inv.ticket_count}</Table.Td>
                    <Table.Td style={{ textAlign: 'right' }}>{formatMoney(inv.total, inv.currency)}</Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Button
                          size="compact-xs"
                          variant="default"
                          leftSection={<IconFileSpreadsheet size={14} />}
                          loading={busy(inv, 'xlsx')}
                          onClick={() => get(inv, 'xlsx')}
                          aria-label={`Download ${inv.number} as XLSX`}
                        >
                          XLSX
                        </Button>
                        <Button
                          size="compact-xs"
                          variant="default"
                          leftSection={<IconFileTypePdf size={14} />}
                          loading={busy(inv, 'pdf')}
                          onClick={() => get(inv, 'pdf')}
                          aria-label={`Download ${inv.number} as PDF`}
                        >
                          PDF
                        </Button>
                        <EvidenceLink inv={inv} file="evidence.pdf" />
                        <EvidenceLink inv={inv} file="evidence.zip" />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      {canWrite && creating && <CreateInvoiceModal jobId={jobId} onClose={() => setCreating(false)} />}
    </Paper>
  );
}

/** What each evidence file is called on its link (docs/product/billing.md §7). */
const EVIDENCE_LINK = {
  'evidence.pdf': { icon: IconPhotoCheck, text: 'Evidence PDF', also: '' },
  'evidence.zip': { icon: IconFileZip, text: 'Evidence ZIP', also: ', with every photo' },
} as const;

/** A plain link to one evidence file: its accessible name holds its visible words (WCAG 2.5.3). */
function EvidenceLink({ inv, file }: { inv: InvoiceSummary; file: keyof typeof EVIDENCE_LINK }) {
  const { icon: Icon, text, also } = EVIDENCE_LINK[file];
  return (
    <Button
      component="a"
      href={evidenceUrl(inv.id, file)}
      download={invoiceFileName(inv.job_number, inv.number, file)}
      size="compact-xs"
      variant="default"
      leftSection={<Icon size={14} />}
      aria-label={`Download ${text} of ${inv.number}${also}`}
    >
      {text}
    </Button>
  );
}
