import type { ReactNode } from 'react';
import { Container, Group, SegmentedControl, Stack, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';

/**
 * The frame of a list page (Jobs, Crew): its title and main action, a status filter and a search
 * box above the list. On a phone the filter takes the whole width.
 */
export function ListPage<S extends string>({
  title,
  action,
  statuses,
  status,
  onStatus,
  searchLabel,
  search,
  onSearch,
  children,
}: {
  title: string;
  /** The page's main button (Create Job, Add User), for those allowed to use it. */
  action?: ReactNode;
  statuses: readonly S[];
  status: S;
  onStatus: (status: S) => void;
  /** The search box's accessible name, e.g. 'Search jobs'. */
  searchLabel: string;
  search: string;
  onSearch: (text: string) => void;
  children: ReactNode;
}) {
  const phone = useMediaQuery('(max-width: 48em)');
  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <Group justify="space-between" align="center">
          <Title order={1} size="h2">
            {title}
          </Title>
          {action}
        </Group>

        <Group gap="sm" align="flex-end" wrap="wrap">
          <SegmentedControl
            aria-label="Status filter"
            data={statuses.map((s) => ({ value: s, label: s }))}
            value={status}
            onChange={(v) => onStatus(v as S)}
            fullWidth={phone}
            size={phone ? 'xs' : 'sm'}
            style={phone ? { width: '100%' } : undefined}
          />
          <TextInput
            aria-label={searchLabel}
            placeholder="Search"
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => onSearch(e.currentTarget.value)}
            maxLength={100}
            style={{ flex: '1 1 220px', maxWidth: phone ? undefined : 360 }}
          />
        </Group>

        {children}
      </Stack>
    </Container>
  );
}
