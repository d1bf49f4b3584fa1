import { useMemo, useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, Radio, ScrollArea, Stack, Table, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { ERROR_CODE } from '../../../shared/error-codes';
import { invoiceBodyOf, invoiceChoiceForm, type InvoiceChoice, type InvoicePreview } from '../../../shared/invoices.schemas';
import { MSG } from '../../../shared/messages';
import { formatMoney } from '../../../shared/money';
import { compareLinePole } from '../../../shared/sorting';
import { ApiError } from '../../api/client';
import { useJob } from '../../api/job';
import { firstMessage } from '../../components/form';
import { useCreateInvoice, usePreviewInvoice } from './api/createInvoice';
import { EvidenceTable } from './EvidenceTable';

/** What to bill must be complete (src/shared/invoices.schemas): a date, or at least one ticket. */
const choiceRules = schemaResolver(invoiceChoiceForm, { sync: true });

/**
 * Create invoice (docs/product/billing.md §5): what to bill (every completed unbilled ticket, those completed
 * through a date, or chosen ones), Preview (the lines and total the server would freeze), then
 * Confirm, which sends the previewed tickets: if someone billed one meanwhile, the 409 says which
 * and the preview is dropped, never silently replaced by another invoice.
 */
export function CreateInvoiceModal({ jobId, onClose }: { jobId: number; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 48em)');
  const job = useJob(jobId);
  const [preview, setPreview] = useState<InvoicePreview | null>(null);
  const [problem, setProblem] = useState<{ text: string; race: boolean } | null>(null);
  // A changed choice drops the preview (and what was said about the old one).
  const form = useForm<InvoiceChoice>({
    initialValues: { mode: 'all', through: '', chosen: [] },
    validate: choiceRules,
    onValuesChange: () => {
      setPreview(null);
      setProblem(null);
    },
  });
  const { mode, through, chosen } = form.values;
  // docs/product/records.md §9: leave out the Complete tickets without the photos required as evidence.
  const [leaveOut, setLeaveOut] = useState(false);
  const previewing = usePreviewInvoice(jobId);
  const creating = useCreateInvoice(jobId);

  // Complete tickets not billed yet: the ones that can be chosen.
  const billable = useMemo(
    () =>
      (job.data?.tickets ?? [])
        .filter((t) => t.status === 'Complete' && !t.invoice_number)
        .sort((a, b) => compareLinePole(a, b) || a.id - b.id),
    [job.data],
  );

  const fail = (err: unknown) => {
    const race = err instanceof ApiError && (err.code === ERROR_CODE.alreadyBilled || err.code === ERROR_CODE.nothingToInvoice);
    setProblem({ text: err instanceof Error ? err.message : MSG.generic, race });
    setPreview(null);
  };

  const onPreview = form.onSubmit(
    (choice) => {
      setProblem(null);
      previewing.mutate(invoiceBodyOf(choice, leaveOut), { onSuccess: setPreview, onError: fail });
    },
    (errors) => setProblem({ text: firstMessage(errors), race: false }),
  );
  const onConfirm = () => {
    if (!preview) return;
    creating.mutate(
      { ticket_ids: preview.ticket_ids, ...(leaveOut ? { require_evidence: true } : {}) },
      {
        onSuccess: (invoice) => {
          notifications.show({ color: 'green', title: `Invoice ${invoice.number} created`, message: `${invoice.ticket_count} tickets, ${formatMoney(invoice.total, invoice.currency)}.` });
          onClose();
        },
        onError: fail,
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title="Create invoice" size="min(900px, 96vw)" fullScreen={phone}>
      <Stack gap="sm">
        <Radio.Group
          label="What to bill"
          value={mode}
          onChange={(v) => form.setFieldValue('mode', v as InvoiceChoice['mode'])}
        >
          <Stack gap={6} mt={6}>
            <Radio value="all" label={`Every completed ticket not billed yet (${billable.length})`} />
            <Radio value="date" label="Completed tickets through a date" />
            <Radio value="tickets" label="Chosen tickets" />
          </Stack>
        </Radio.Group>

        {mode === 'date' && (
          <TextInput
            type="date"
            label="Completed on or before"
            description="In the company's time zone."
            value={through}
            onChange={(e) => form.setFieldValue('through', e.currentTarget.value)}
            maw={240}
          />
        )}
        {mode === 'tickets' &&
          (billable.length === 0 ? (
            <Text size="sm" c="dimmed">
              No completed ticket is waiting to be billed.
            </Text>
          ) : (
            <Checkbox.Group
              label="Completed tickets not billed yet"
              value={chosen.map(String)}
              onChange={(v) => form.setFieldValue('chosen', v.map(Number))}
            >
              <ScrollArea.Autosize mah={220} mt={6}>
                <Stack gap={4}>
                  {billable.map((t) => (
                    <Checkbox key={t.id} size="md" value={String(t.id)} label={`Pole ${t.pole_name ?? '--'} · Line ${t.line_name ?? '--'}`} />
                  ))}
                </Stack>
              </ScrollArea.Autosize>
            </Checkbox.Group>
          ))}

        {/* 24 px: a finger-sized target (WCAG 2.5.8), as the radios' spacing gives them. */}
        <Checkbox
          size="md"
          label="Leave out tickets without evidence"
          description="A completed ticket needs photos taken at the pole, after the job was created, to count as evidenced."
          checked={leaveOut}
          onChange={(e) => {
            setLeaveOut(e.currentTarget.checked);
            setPreview(null);
            setProblem(null);
          }}
        />

        {problem && (
          <Alert color={problem.race ? 'orange' : 'red'} role="alert" title={problem.race ? 'Nothing was invoiced' : undefined}>
            {problem.text}
          </Alert>
        )}

        {preview && (
          <Stack gap={6} data-testid="invoice-preview">
            <Text fw={600}>
              Preview: {preview.ticket_count} tickets, {preview.line_count} lines
            </Text>
            <Text size="sm" data-testid="invoice-bill-to">
              Bill to {preview.bill_to.utility}
              {preview.bill_to.address ? `, ${preview.bill_to.address}` : ''} · Job {preview.bill_to.job_number}
              {preview.bill_to.work_orders.length > 0 ? ` · Work orders ${preview.bill_to.work_orders.join(', ')}` : ''}
            </Text>
            {/* Focusable, so a keyboard can scroll the lines (axe: scrollable-region-focusable). */}
            <Table.ScrollContainer
              minWidth={560}
              maxHeight={320}
              scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Invoice lines' } }}
            >
              <Table striped verticalSpacing={2} fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Pole</Table.Th>
                    <Table.Th>Line</Table.Th>
                    <Table.Th>Code</Table.Th>
                    <Table.Th>Description</Table.Th>
                    <Table.Th style={{ textAlign: 'right' }}>Qty</Table.Th>
                    <Table.Th style={{ textAlign: 'right' }}>Price</Table.Th>
                    <Table.Th style={{ textAlign: 'right' }}>Amount</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.lines.map((l, i) => (
                    <Table.Tr key={i}>
                      <Table.Td>{l.pole_name}</Table.Td>
                      <Table.Td>{l.line_name}</Table.Td>
                      <Table.Td>{l.code}</Table.Td>
                      <Table.Td>{l.description}</Table.Td>
                      <Table.Td style={{ textAlign: 'right' }}>{l.quantity}</Table.Td>
                      <Table.Td style={{ textAlign: 'right' }}>{l.unit_price == null ? 'no price' : formatMoney(l.unit_price, preview.currency)}</Table.Td>
                      <Table.Td style={{ textAlign: 'right' }}>{formatMoney(l.amount, preview.currency)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Text fw={700} ta="right" data-testid="invoice-preview-total">
              Total {formatMoney(preview.total, preview.currency)}
            </Text>
            <EvidenceTable preview={preview} />
            {preview.lines.some((l) => l.unit_price == null) && (
              <Text size="xs" c="dimmed" ta="right">
                Units without a price count 0.
              </Text>
            )}
          </Stack>
        )}

        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button variant={preview ? 'default' : 'filled'} onClick={() => onPreview()} loading={previewing.isPending}>
            Preview
          </Button>
          {preview && (
            <Button onClick={onConfirm} loading={creating.isPending}>
              Confirm invoice
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
