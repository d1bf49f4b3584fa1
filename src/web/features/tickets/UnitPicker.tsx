import { useState } from 'react';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { UnitOption } from '../../../shared/poles.schemas';
import { useUnitSearch } from './api/units';

/** Searches the company's unit library by code or description (GET /units) and picks one unit. */
export function UnitPicker({
  utilityId,
  onPick,
  label = 'Unit',
  autoFocus,
}: {
  utilityId: number | null;
  onPick: (u: UnitOption) => void;
  label?: string;
  autoFocus?: boolean;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const units = useUnitSearch(debounced, utilityId);
  const options = units.data ?? [];
  return (
    <Select
      label={label}
      placeholder="Search by code or description"
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      value={null}
      data={options.map((u) => ({ value: String(u.id), label: `${u.code} — ${u.description}` }))}
      // The server already matched code or description: show its answer as it is.
      filter={({ options: o }) => o}
      onChange={(v) => {
        const unit = options.find((u) => String(u.id) === v);
        if (unit) {
          onPick(unit);
          setSearch('');
        }
      }}
      nothingFoundMessage={units.isFetching ? 'Searching…' : 'No unit matches'}
      comboboxProps={{ withinPortal: true }}
      autoFocus={autoFocus}
      maxDropdownHeight={260}
    />
  );
}
