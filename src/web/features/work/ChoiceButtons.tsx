import { Button } from '@mantine/core';

/**
 * A few exclusive choices as a row of buttons, the chosen one filled and `aria-pressed`. It looks
 * and reads like a segmented control, but is made of the Buttons My Work already loads: Mantine's
 * SegmentedControl would add its code to the page (issue 17's page weights).
 */
export function ChoiceButtons<T extends string>({
  label,
  options,
  value,
  onChange,
  busy,
}: {
  label: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (v: T) => void;
  /** The chosen option is waiting for something (the phone's position). */
  busy?: boolean;
}) {
  return (
    <div role="group" aria-label={label}>
      <Button.Group>
        {options.map((o) => (
          <Button
            key={o.value}
            variant={o.value === value ? 'filled' : 'default'}
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
