import { useMemo, useState, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Container, Group, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { formatMoney, parsePrice } from '../../../shared/money';
import { can } from '../../../shared/permissions';
import type { UnitLibraryItem } from '../../../shared/production.schemas';
import { UNIT_SORT_COLUMNS, UNIT_SORT_DEFAULT, UNIT_SORT_STORAGE, visibleUnits, type UnitSortColumn } from '../../../shared/units.list';
import { ApiError } from '../../api/client';
import { useSession } from '../../api/session';
import { useUtilities } from '../../api/utilities';
import { LoadState } from '../../components/LoadState';
import { SortableList } from '../../components/SortableList';
import { usePageTitle } from '../../components/usePageTitle';
import { useStoredSort } from '../../components/useStoredSort';
import { useSaveUnitPrice } from './api/saveUnitPrice';
import { useUnitLibrary } from './api/unitLibrary';
import { NoPriceBadge } from './NoPriceBadge';

const COLUMNS: { column: UnitSortColumn; label: string }[] = [
  { column: 'code', label: 'Code' },
  { column: 'description', label: 'Description' },
  { column: 'uom', label: 'UOM' },
  { column: 'unit_price', label: 'Price' },
];

/**
 * /units (docs/product/billing.md §2, roles 1–3): one utility's unit library with prices; roles 1–2 edit a price
 * in place (saved on Enter or when the field is left), role 3 reads them. `?utility=<id>` picks
 * the utility (the Production view links here with the job's).
 */
export default function UnitLibraryPage() {
  usePageTitle('Unit Library');
  const { claims } = useSession();
  const canRead = can(claims?.roleId, 'billing.read');
  const canEdit = can(claims?.roleId, 'billing.write');
  const [params, setParams] = useSearchParams();
  const utilities = useUtilities(canRead);
  const asked = Number(params.get('utility'));
  const utilityId = utilities.data?.some((u) => u.id === asked) ? asked : (utilities.data?.[0]?.id ?? null);
  const library = useUnitLibrary(canRead ? utilityId : null);
  const [search, setSearch] = useState('');
  const [sort, toggleSort] = useStoredSort(UNIT_SORT_STORAGE, UNIT_SORT_DEFAULT, UNIT_SORT_COLUMNS);
  const rows = useMemo(() => visibleUnits(library.data ?? [], search, sort.column, sort.direction), [library.data, search, sort.column, sort.direction]);

  if (!canRead)
    return (
      <Container size="sm" py="md">
        <Text role="alert">Only the office and foremen can see the unit library's prices.</Text>
      </Container>
    );

  const unpriced = library.data?.filter((u) => u.unit_price == null).length ?? 0;
  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <Title order={1} size="h2">
          Unit Library
        </Title>
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label="Utility"
            data={(utilities.data ?? []).map((u) => ({ value: String(u.id), label: u.code }))}
            value={utilityId == null ? null : String(utilityId)}
            onChange={(v) => v && setParams({ utility: v }, { replace: true })}
            allowDeselect={false}
            style={{ flex: '0 1 200px' }}
          />
          <TextInput
            label="Search units"
            placeholder="Code, description or UOM"
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            maxLength={100}
            style={{ flex: '1 1 220px', maxWidth: 360 }}
          />
        </Group>
        {library.data && (
          <Text size="sm" c="dimmed" aria-live="polite">
            {library.data.length.toLocaleString('en-US')} units{unpriced > 0 ? `, ${unpriced.toLocaleString('en-US')} without a price (they count 0 in production)` : ''}.
            {canEdit ? ' Type a price and press Enter to save it; clear it to remove the price.' : ''}
          </Text>
        )}
        <LoadState query={utilityId == null ? utilities : library} loading="Loading the unit library" failed="The unit library could not be loaded">
          {utilityId != null && (
            <SortableList
              label="Units"
              minWidth={720}
              columns={COLUMNS}
              sort={sort}
              onSort={toggleSort}
              rows={rows}
              empty={search.trim() ? 'No units match.' : 'This utility has no units yet. A job import fills its library.'}
              highlightOnHover={false}
              row={(u) => (
                <Table.Tr>
                  <Table.Td fw={600}>{u.code}</Table.Td>
                  <Table.Td>{u.description}</Table.Td>
                  <Table.Td>{u.uom}</Table.Td>
                  <Table.Td style={{ minWidth: 170 }}>{canEdit ? <PriceField unit={u} utilityId={utilityId} /> : <PriceText unit={u} />}</Table.Td>
                </Table.Tr>
              )}
              card={(u) => (
                <Paper withBorder p="sm">
                  <Text fw={700}>{u.code}</Text>
                  <Text size="sm">{u.description}</Text>
                  <Text size="sm" c="dimmed" mb={4}>
                    UOM: {u.uom || '--'}
                  </Text>
                  {canEdit ? <PriceField unit={u} utilityId={utilityId} /> : <PriceText unit={u} />}
                </Paper>
              )}
            />
          )}
        </LoadState>
      </Stack>
    </Container>
  );
}

const PriceText = ({ unit }: { unit: UnitLibraryItem }) =>
  unit.unit_price == null ? <NoPriceBadge /> : <Text size="sm">{formatMoney(unit.unit_price)}</Text>;

/**
 * A price typed in place: checked with the server's own rule (parsePrice) before it is sent, the
 * server's message shown on the field when it still refuses it. Escape puts the saved price back.
 */
function PriceField({ unit, utilityId }: { unit: UnitLibraryItem; utilityId: number }) {
  const save = useSaveUnitPrice(utilityId);
  const saved = unit.unit_price ?? '';
  const [draft, setDraft] = useState<{ from: string; text: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  // A draft typed over an older saved price is dropped when the saved price changes.
  const text = draft && draft.from === saved ? draft.text : saved;

  function commit() {
    const parsed = parsePrice(text);
    if (!parsed.ok) return setError(parsed.message);
    if ((parsed.value ?? '') === saved) {
      setDraft(null);
      return setError(null);
    }
    setError(null);
    save.mutate(
      { id: unit.id, unit_price: parsed.value },
      {
        onSuccess: () => {
          setDraft(null);
          setDone(true);
        },
        onError: (err) => setError(err instanceof ApiError ? (err.fields.unit_price ?? err.message) : err.message),
      },
    );
  }
  function onKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Enter') {
      e.preventDefault();
      commit();
    } else if (e.key === 'Escape') {
      setDraft(null);
      setError(null);
    }
  }
  return (
    <TextInput
      aria-label={`Price of ${unit.code}`}
      placeholder="No price"
      leftSection={<Text size="sm" c="dimmed" aria-hidden>$</Text>}
      inputMode="decimal"
      size="sm"
      value={text}
      error={error}
      description={done && !error && !save.isPending && draft === null ? 'Saved' : undefined}
      disabled={save.isPending}
      onChange={(e) => {
        setDraft({ from: saved, text: e.currentTarget.value });
        setDone(false);
      }}
      onKeyDown={onKey}
      onBlur={() => {
        if (draft && draft.from === saved) commit();
      }}
      maxLength={40}
    />
  );
}
