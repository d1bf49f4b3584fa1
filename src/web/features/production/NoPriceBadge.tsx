import { Badge } from '@mantine/core';

/** A unit without a price: it counts 0 in every amount (docs/product/billing.md §2), so it is shown, not hidden. */
export const NoPriceBadge = () => (
  <Badge color="orange" variant="light" style={{ flex: 'none' }}>
    No price
  </Badge>
);
