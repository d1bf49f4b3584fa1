import { Text } from '@mantine/core';

const QTY = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });
export const formatQty = (n: number) => QTY.format(n);
/** A change to the bid always shows its sign: +1, −2, 0. */
export const signedQty = (n: number) => (n > 0 ? `+${formatQty(n)}` : n < 0 ? `\u2212${formatQty(-n)}` : '0');

/**
 * The quantity a task comes to: bid plus change. A new task starts with a
 * change of 1 (docs/product/rules.md), so the total is said beside the two numbers, never left to be guessed.
 */
export function TaskTotal({ init, change, uom }: { init: number; change: number; uom?: string | null }) {
  return (
    <div data-testid="task-total" aria-live="polite">
      <Text size="sm" fw={600}>
        Total qty
      </Text>
      <Text size="xs" c="dimmed">
        Bid {formatQty(init)} {change < 0 ? '\u2212' : '+'} {formatQty(Math.abs(change))}
      </Text>
      <Text fw={700} size="lg" mt={2}>
        {formatQty(init + change)}
        {uom ? ` ${uom}` : ''}
      </Text>
    </div>
  );
}
