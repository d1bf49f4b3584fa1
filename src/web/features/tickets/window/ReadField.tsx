import type { ReactNode } from 'react';
import { Text } from '@mantine/core';

/**
 * A field the person may not change, shown as text with its label: no white
 * box, arrows or steppers that look editable. "--" when empty.
 */
export function ReadField({ label, children, multiline }: { label: string; children: ReactNode; multiline?: boolean }) {
  const empty = children === null || children === undefined || children === '' || (Array.isArray(children) && children.length === 0);
  return (
    <div data-testid="read-field">
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Text style={{ whiteSpace: multiline ? 'pre-wrap' : undefined, overflowWrap: 'anywhere' }}>{empty ? '--' : children}</Text>
    </div>
  );
}
