import { useState } from 'react';
import { TextInput } from '@mantine/core';
import { formatGeo, truncateGeo } from '../../../shared/geo';
import { cutGeoText } from './ticketDraft';

/**
 * A latitude or longitude: free typing, at most 6 decimals (extra digits are cut, not rounded),
 * the number given to the parent as soon as the text is one, and a range message otherwise.
 */
export function GeoInput({
  label,
  value,
  onChange,
  min,
  max,
  readOnly,
  error: refused,
}: {
  label: string;
  value: number | null;
  onChange: (v: number | null) => void;
  min: number;
  max: number;
  readOnly?: boolean;
  /** A refused save's message for this field; the range message of what is typed comes first. */
  error?: React.ReactNode;
}) {
  const [textValue, setText] = useState(formatGeo(value));
  // The parent changed the value (another pole chosen, a reload): show it.
  const commit = (t: string) => {
    const v = truncateGeo(t);
    return v !== null && v >= min && v <= max ? v : null;
  };
  const shown = commit(textValue) === value ? textValue : formatGeo(value);
  const n = truncateGeo(shown);
  const error = shown.trim() !== '' && (n === null || n < min || n > max) ? `Enter a number between ${min} and ${max}` : undefined;
  return (
    <TextInput
      label={label}
      value={shown}
      inputMode="decimal"
      readOnly={readOnly}
      error={error ?? refused}
      maxLength={20}
      onChange={(e) => {
        const t = cutGeoText(e.currentTarget.value);
        setText(t);
        onChange(commit(t));
      }}
    />
  );
}
