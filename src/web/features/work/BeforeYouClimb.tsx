import { useEffect, useState } from 'react';
import { Anchor, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import type { JobListItem } from '../../../shared/jobs.schemas';
import type { Ticket } from '../../../shared/tickets.schemas';
import { keepDocuments, keptDocumentUrls } from '../../offline/documents';
import { climbDocuments, docStatus, safetyValue, type ClimbDocument, type SafetyValue } from './climbFacts';

/** One line of the block: what, and its value (or "Not given" — an empty line must not read as "none"). */
function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" fw={600} w="40%" style={{ verticalAlign: 'top' }}>
        {label}
      </Table.Th>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>{children}</Table.Td>
    </Table.Tr>
  );
}

const NOT_GIVEN = (
  <Text span c="dimmed">
    Not given
  </Text>
);

function Safety({ v }: { v: SafetyValue }) {
  if (!v.value) return NOT_GIVEN;
  return (
    <>
      <Text span fw={700}>
        {v.value}
      </Text>
      {v.recordSays && (
        // red.9: Mantine's darkest orange (orange.9) is 4.29 : 1 on white, under WCAG AA's 4.5 (axe).
        <Text span size="sm" c="red.9" display="block">
          Pole record says {v.recordSays}: check with the office
        </Text>
      )}
    </>
  );
}

/**
 * The documents, as links that open: online the file itself; offline the copy kept on the phone
 * (offline/documents.ts), or "Open when you have signal" when none is kept.
 */
function Documents({ docs, userId, online }: { docs: ClimbDocument[]; userId: number; online: boolean }) {
  const [kept, setKept] = useState<Map<string, string> | null>(null);
  const urls = docs.map((d) => d.url).join('\n');
  useEffect(() => {
    const list = urls ? urls.split('\n') : [];
    if (online) {
      // Kept in the background while there is signal, for the next time there is none.
      void keepDocuments(userId, list);
      setKept(null);
      return;
    }
    let cancelled = false;
    let made: Map<string, string> | null = null;
    void keptDocumentUrls(userId, list).then((m) => {
      made = m;
      if (cancelled) m.forEach((u) => URL.revokeObjectURL(u));
      else setKept(m);
    });
    return () => {
      cancelled = true;
      made?.forEach((u) => URL.revokeObjectURL(u));
    };
  }, [urls, userId, online]);

  if (docs.length === 0) return <Text c="dimmed">No documents on this ticket or its job.</Text>;
  return (
    <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {docs.map((d) => {
        const href = online ? d.url : kept?.get(d.url);
        return (
          <li key={`${d.label} ${d.url}`}>
            <Text size="sm" c="dimmed">
              {d.label}
            </Text>
            {href ? (
              <Anchor href={href} target="_blank" rel="noopener" py={6} display="inline-block" style={{ overflowWrap: 'anywhere' }}>
                <IconFileTypePdf size={18} aria-hidden style={{ verticalAlign: -4, marginRight: 4 }} />
                Open {d.name}
              </Anchor>
            ) : (
              <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                {d.name}:{' '}
                {/* Bold in the text's own colour: orange.9 was 4.29 : 1 on white (axe, AA 4.5). */}
                <Text span fw={700}>
                  {kept === null && !online ? 'Looking on this phone…' : 'Open when you have signal'}
                </Text>
              </Text>
            )}
          </li>
        );
      })}
    </Stack>
  );
}

/**
 * "Before you climb" (docs/product/field-mode.md §2, decision 039): what the office entered that a lineman needs at the
 * pole — voltages, arc rating, EHASP, hospital and ambulance meet-up, work orders, dig-safe and
 * NRA status, and the documents — read-only, on the phone, from the ticket and its job's header
 * as kept on the device, so it reads the same without signal.
 */
export function BeforeYouClimb({ ticket, header, userId, online }: { ticket: Ticket; header: JobListItem | undefined; userId: number; online: boolean }) {
  const pole = ticket.pole;
  const hospital = [header?.hospital_name, header?.hospital_address].filter(Boolean).join(', ');
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="work-climb">
      <Stack gap="xs">
        <Title order={2} size="h4" id="work-climb">
          Before you climb
        </Title>
        {!header && (
          <Text size="sm" c="dimmed">
            The job's hospital, packet and overrides are not on this phone yet: they show once the ticket is opened with signal.
          </Text>
        )}
        <Table withRowBorders verticalSpacing={6} horizontalSpacing={6} layout="fixed">
          <Table.Tbody>
            <Fact label="Primary voltage">
              <Safety v={safetyValue(header?.primary_voltage_override, pole?.primary_voltage)} />
            </Fact>
            <Fact label="Secondary voltage">
              <Safety v={safetyValue(header?.secondary_voltage_override, pole?.secondary_voltage)} />
            </Fact>
            <Fact label="Arc rating">
              <Safety v={safetyValue(header?.arc_rating_override, pole?.arc_rating)} />
            </Fact>
            <Fact label="EHASP">
              <Safety v={safetyValue(header?.ehasp_override, ticket.ehasp)} />
            </Fact>
            <Fact label="Hospital">
              {hospital ? (
                <>
                  <Text span fw={700}>
                    {header?.hospital_name || 'Hospital'}
                  </Text>
                  {header?.hospital_address && (
                    <Anchor href={`geo:0,0?q=${encodeURIComponent(header.hospital_address)}`} display="block" py={4}>
                      {header.hospital_address}
                    </Anchor>
                  )}
                </>
              ) : (
                NOT_GIVEN
              )}
            </Fact>
            <Fact label="Ambulance meet-up">{ticket.ambulance_meetup?.trim() ? <Text span fw={700}>{ticket.ambulance_meetup}</Text> : NOT_GIVEN}</Fact>
            <Fact label="Work contact">
              {header?.work_contact_phone ? <Anchor href={`tel:${header.work_contact_phone}`}>{header.work_contact_phone}</Anchor> : NOT_GIVEN}
            </Fact>
            <Fact label={ticket.work_orders.length > 1 ? 'Work orders' : 'Work order'}>
              {ticket.work_orders.length ? <Text span fw={700}>{ticket.work_orders.join(', ')}</Text> : NOT_GIVEN}
            </Fact>
            <Fact label="Dig Safe">{docStatus(ticket.dig_safe_required, ticket.dig_safe_url)}</Fact>
            <Fact label="NRA/DNR">{docStatus(ticket.nra_required, ticket.nra_url)}</Fact>
          </Table.Tbody>
        </Table>
        <Title order={3} size="h5">
          Documents
        </Title>
        <Documents docs={climbDocuments(ticket, header)} userId={userId} online={online} />
      </Stack>
    </Paper>
  );
}
