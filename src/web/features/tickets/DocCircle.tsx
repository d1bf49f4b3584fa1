import classes from './TicketsTable.module.css';

/**
 * SPEC §2 NRA/DNR and Digsafe cells: grey = not required, red = required but no document,
 * green = document present. The state is in the label, not only in the colour.
 */
export function docState(required: number, url: string | null): 'none' | 'missing' | 'present' {
  if (url) return 'present';
  return required ? 'missing' : 'none';
}

const LABEL = { none: 'Not required', missing: 'Required, no document', present: 'Document on file' } as const;

export function DocCircle({ what, required, url }: { what: string; required: number; url: string | null }) {
  const state = docState(required, url);
  const label = `${what}: ${LABEL[state]}`;
  return <span role="img" aria-label={label} title={label} data-state={state} className={`${classes.circle} ${classes[state]}`} />;
}
