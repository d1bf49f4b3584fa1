import { Group, Text } from '@mantine/core';
import { IconAlertCircleFilled, IconCircleCheckFilled, IconCircleDashed } from '@tabler/icons-react';

/**
 * docs/product/screens.md NRA/DNR and Digsafe cells: grey = not required, red = required but no document,
 * green = document present. Each state also has its own shape (dashed ring, exclamation mark,
 * tick) and a label, so that nobody needs to tell red from green in sunlight.
 */
export function docState(required: number, url: string | null): 'none' | 'missing' | 'present' {
  if (url) return 'present';
  return required ? 'missing' : 'none';
}

const LABEL = { none: 'Not required', missing: 'Required, no document', present: 'Document on file' } as const;
const ICON = {
  none: { Icon: IconCircleDashed, color: 'var(--mantine-color-gray-6)' },
  missing: { Icon: IconAlertCircleFilled, color: 'var(--mantine-color-red-7)' },
  present: { Icon: IconCircleCheckFilled, color: 'var(--mantine-color-green-8)' },
} as const;

function Mark({ state, label }: { state: keyof typeof LABEL; label?: string }) {
  const { Icon, color } = ICON[state];
  return label ? (
    <Icon size={18} color={color} role="img" aria-label={label} title={label} data-state={state} style={{ verticalAlign: 'middle', flex: 'none' }} />
  ) : (
    <Icon size={18} color={color} aria-hidden data-state={state} style={{ verticalAlign: 'middle', flex: 'none' }} />
  );
}

export function DocCircle({ what, required, url }: { what: string; required: number; url: string | null }) {
  const state = docState(required, url);
  return <Mark state={state} label={`${what}: ${LABEL[state]}`} />;
}

/** What the Dig Safe / NRA marks mean, shown beside the ticket list. */
export function DocLegend() {
  return (
    <Group gap="md" style={{ rowGap: 4 }} aria-label="Dig Safe and NRA/DNR marks" role="group" data-testid="doc-legend">
      <Text size="xs" fw={600}>
        Dig Safe, NRA/DNR:
      </Text>
      {(Object.keys(LABEL) as (keyof typeof LABEL)[]).map((s) => (
        <Group key={s} gap={4} wrap="nowrap">
          <Mark state={s} />
          <Text size="xs">{LABEL[s]}</Text>
        </Group>
      ))}
    </Group>
  );
}
