import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Collapse, Group, Paper, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { formatMoney } from '../../../shared/money';
import { productionHeadline } from '../../../shared/production';
import type { ProductionReply } from '../../../shared/production.schemas';
import { LoadState } from '../../components/LoadState';
import { useProduction } from './api/production';
import { NoPriceBadge } from './NoPriceBadge';

// One formatter each: toLocaleString with options builds a new one per call, ~0.1 ms each, which
// for a job of 500 units' figures was a quarter of a second on a phone.
const QTY = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });
const PCT = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const qty = (n: number) => QTY.format(n);
const pct = (n: number) => `${PCT.format(n)}%`;

/**
 * The job's Production (docs/product/roles-and-statuses.md §3, roles 1–3; the page shows it only to them): how far the job
 * is, by amount (or by quantity when no unit has a price), its totals, and on demand the figures
 * per unit and per foreman. Every figure is the server's (computeProduction); nothing is summed here.
 */
export default function ProductionSection({ jobId, utilityId }: { jobId: number; utilityId: number | null }) {
  const production = useProduction(jobId);
  const [open, setOpen] = useState(false);
  // The details (a row per unit: hundreds of rows on a big job) are built when first shown, not
  // hidden in the page from the start: on a phone they were most of the job page's late blocking
  // time (decision 058). Once built they stay, so hiding them again animates as before.
  const [opened, setOpened] = useState(false);
  const library = utilityId == null ? '/units' : `/units?utility=${utilityId}`;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="production-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} id="production-title" size="h4">
            Production
          </Title>
          {production.data && production.data.units.length > 0 && (
            <Button variant="default" size="compact-sm" onClick={() => {
                setOpened(true);
                setOpen((o) => !o);
              }} aria-expanded={open} aria-controls="production-details">
              {open ? 'Hide details' : 'Show details'}
            </Button>
          )}
        </Group>
        <LoadState query={production} loading="Loading production" failed="Production could not be loaded">
          {production.data && <Summary data={production.data} library={library} />}
          {production.data && production.data.units.length > 0 && (
            <Collapse expanded={open} id="production-details">
              {opened && <Details data={production.data} library={library} />}
            </Collapse>
          )}
        </LoadState>
      </Stack>
    </Paper>
  );
}

function Summary({ data: { totals, units }, library }: { data: ProductionReply; library: string }) {
  const unpriced = units.filter((u) => u.unit_price == null).length;
  const byQuantity = units.length > 0 && unpriced === units.length;
  // Bid, Changes, Actual, Completed, Remaining: the first row of the grid on a wide screen.
  const figures = productionHeadline(totals, units).map(([label, amount]) => [label, formatMoney(amount)] as const);
  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="nowrap" align="center">
        <Progress
          value={totals.percent_complete}
          size="lg"
          radius="sm"
          color="green"
          style={{ flex: 1 }}
          aria-label={`Job ${pct(totals.percent_complete)} complete`}
        />
        <Text fw={700} data-testid="production-percent" style={{ whiteSpace: 'nowrap' }}>
          {pct(totals.percent_complete)} complete
        </Text>
      </Group>
      {units.length === 0 ? (
        <Text size="sm" c="dimmed">
          No tasks yet: production starts with the job's first unit.
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="xs">
          {figures.map(([label, value]) => (
            <div key={label}>
              <Text size="xs" c="dimmed">
                {label}
              </Text>
              <Text fw={600} data-testid={`production-${label.toLowerCase().replace(/[^a-z]+/g, '-')}`}>
                {value}
              </Text>
            </div>
          ))}
        </SimpleGrid>
      )}
      {unpriced > 0 && (
        <Alert color="orange" variant="light" p="xs">
          <Text size="sm">
            {unpriced === 1 ? '1 unit has' : `${unpriced} units have`} no price and count{unpriced === 1 ? 's' : ''} 0
            {byQuantity ? ', so % complete is by quantity' : ''}.{' '}
            {/* A darker blue than the default: 4.5:1 on the orange alert (axe). */}
            <Anchor component={Link} to={library} size="sm" c="blue.9" fw={600}>
              Set prices in the Unit Library
            </Anchor>
          </Text>
        </Alert>
      )}
    </Stack>
  );
}

function Details({ data: { units, by_foreman }, library }: { data: ProductionReply; library: string }) {
  return (
    <Stack gap="md" pt="xs">
      <Scroll label="Production by unit, scrolls sideways" minWidth={900}>
        <Table striped verticalSpacing="xs" aria-label="Production by unit">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Unit</Table.Th>
              <Table.Th>UOM</Table.Th>
              <Table.Th ta="right">Price</Table.Th>
              <Table.Th ta="right">Bid qty</Table.Th>
              <Table.Th ta="right">Actual qty</Table.Th>
              <Table.Th ta="right">Completed qty</Table.Th>
              <Table.Th ta="right">Remaining qty</Table.Th>
              <Table.Th ta="right">Bid</Table.Th>
              <Table.Th ta="right">Completed</Table.Th>
              <Table.Th ta="right">Remaining</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {units.map((u) => (
              <Table.Tr key={u.code}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {u.code}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {u.description}
                  </Text>
                </Table.Td>
                <Table.Td>{u.uom}</Table.Td>
                <Table.Td ta="right">
                  {u.unit_price == null ? (
                    <Anchor component={Link} to={library} aria-label={`${u.code} has no price: set it in the Unit Library`}>
                      <NoPriceBadge />
                    </Anchor>
                  ) : (
                    formatMoney(u.unit_price)
                  )}
                </Table.Td>
                <Table.Td ta="right">{qty(u.bid_qty)}</Table.Td>
                <Table.Td ta="right">{qty(u.actual_qty)}</Table.Td>
                <Table.Td ta="right">{qty(u.completed_qty)}</Table.Td>
                <Table.Td ta="right">{qty(u.remaining_qty)}</Table.Td>
                <Table.Td ta="right">{formatMoney(u.bid_amount)}</Table.Td>
                <Table.Td ta="right">{formatMoney(u.completed_amount)}</Table.Td>
                <Table.Td ta="right">{formatMoney(u.remaining_amount)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Scroll>
      <div>
        <Title order={3} size="h5" mb="xs" id="production-foremen">
          By foreman
        </Title>
        <Scroll label="Production by foreman, scrolls sideways" minWidth={560}>
          <Table striped verticalSpacing="xs" aria-labelledby="production-foremen">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Foreman</Table.Th>
                <Table.Th ta="right">Actual</Table.Th>
                <Table.Th ta="right">Completed</Table.Th>
                <Table.Th ta="right">Remaining</Table.Th>
                <Table.Th ta="right">% Complete</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {by_foreman.map((f) => (
                <Table.Tr key={f.foreman_id ?? 'none'}>
                  <Table.Td>{f.name}</Table.Td>
                  <Table.Td ta="right">{formatMoney(f.actual_amount)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(f.completed_amount)}</Table.Td>
                  <Table.Td ta="right">{formatMoney(f.remaining_amount)}</Table.Td>
                  <Table.Td ta="right">{pct(f.percent_complete)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Scroll>
        <Text size="xs" c="dimmed" mt={4}>
          A ticket counts for its working foreman, else for the job's foreman.
        </Text>
      </div>
    </Stack>
  );
}

/**
 * A table that scrolls sideways on a phone. The scrolling box takes the keyboard focus (arrow
 * keys scroll it) and has a name, as a table of figures has nothing else to focus (axe
 * scrollable-region-focusable).
 */
function Scroll({ label, minWidth, children }: { label: string; minWidth: number; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} style={{ overflowX: 'auto' }}>
      <div style={{ minWidth }}>{children}</div>
    </div>
  );
}
