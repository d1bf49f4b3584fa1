import { useState } from 'react';
import { Button, Group, Text, TextInput } from '@mantine/core';
import { IconCurrentLocation } from '@tabler/icons-react';
import { formatGeo, truncateGeo } from '../../../../shared/geo';
import { currentPosition } from '../../../components/geolocation';
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

/**
 * "Use my location" (docs/product/map.md §3): fills latitude and longitude from the phone's position (cut
 * to 6 decimals like typed ones). Only the draft changes: the ticket's Save stores it, with the
 * version it read, like any other edit.
 */
export function UseMyLocation({ onFound }: { onFound: (lat: number | null, lon: number | null) => void }) {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const locate = () => {
    setBusy(true);
    setNote(null);
    currentPosition()
      .then((p) => {
        onFound(truncateGeo(p.lat), truncateGeo(p.lon));
        setNote({ ok: true, text: `Location filled in (within ${Math.round(p.accuracy)} m). Save to keep it.` });
      })
      .catch((err: Error) => setNote({ ok: false, text: err.message }))
      .finally(() => setBusy(false));
  };
  return (
    <Group gap="xs" wrap="wrap">
      <Button variant="light" size="xs" leftSection={<IconCurrentLocation size={16} />} onClick={locate} loading={busy}>
        Use my location
      </Button>
      {note && (
        <Text size="sm" c={note.ok ? 'dimmed' : 'red.9'} role={note.ok ? 'status' : 'alert'}>
          {note.text}
        </Text>
      )}
    </Group>
  );
}
