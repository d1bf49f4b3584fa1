import { Loader, type LoaderProps } from '@mantine/core';

/**
 * A spinner a screen reader names. Mantine's Loader is a bare <span>, and ARIA forbids a name on
 * an element with no role (axe: aria-prohibited-attr); as an indeterminate progress bar it may
 * carry one, and a reader says "Loading the map, busy". A spinner set beside words that say the
 * same needs no name: use Loader there.
 */
export function Spinner({ label, ...props }: LoaderProps & { label: string }) {
  return <Loader role="progressbar" aria-label={label} {...props} />;
}
