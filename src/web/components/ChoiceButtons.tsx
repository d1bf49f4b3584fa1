import { Button, type ButtonProps } from '@mantine/core';

/**
 * A few exclusive choices as a row of buttons, the chosen one filled and `aria-pressed`. It looks
 * and reads like a segmented control, but is made of plain Buttons: Mantine's SegmentedControl
 * adds its code to a page (the page weights of docs/product/scale.md §3) and measures its options to place its
 * indicator, a forced layout of the whole page inside the first render of the big job's page
 * (~320 ms of a phone's load; decision 060).
 */
export function ChoiceButtons<T extends string>({
  label,
  labelledBy,
  options,
  value,
  onChange,
  busy,
  size,
}: {
  /** The group's name read aloud, or the id of the visible text that names it (`labelledBy`). */
  label?: string;
  labelledBy?: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (v: T) => void;
  /** The chosen option is waiting for something (the phone's position). */
  busy?: boolean;
  /** Mantine's button size; the job page's toolbar uses a compact one to stay on one line on a phone. */
  size?: ButtonProps['size'];
}) {
  return (
    <div role="group" aria-label={labelledBy ? undefined : label} aria-labelledby={labelledBy}>
      <Button.Group>
        {options.map((o) => (
          <Button
            key={o.value}
            variant={o.value === value ? 'filled' : 'default'}
            size={size}
            aria-pressed={o.value === value}
            loading={busy && o.value === value}
            onClick={() => o.value !== value && onChange(o.value)}
          >
            {o.label}
          </Button>
        ))}
      </Button.Group>
    </div>
  );
}
