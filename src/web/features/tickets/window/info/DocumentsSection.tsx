import { Anchor, Divider, SimpleGrid, Stack, Text } from '@mantine/core';
import { UploadField } from '../../../../components/upload/UploadField';
import { ReadField } from '../ReadField';
import { companyDay } from '../../../../api/session';
import { PermitsEditor } from './PermitsEditor';
import { RecordFields } from './RecordFields';
import { Section, type SectionProps } from './Section';

/** A document a read-only person can open (or the state of it when there is none). */
function ReadDoc({ label, url, name, required }: { label: string; url: string | null; name: string | null; required?: number }) {
  return (
    <ReadField label={label}>
      {url ? (
        <Anchor href={url} target="_blank" rel="noreferrer">
          {name || label}
        </Anchor>
      ) : required === undefined ? null : required ? (
        'Required, no document yet'
      ) : (
        'Not required'
      )}
    </ReadField>
  );
}

/**
 * Documents: the dig-safe and NRA documents (uploading one sets its flag to 1, removing it sets
 * 0) and the permits. `onBusy`: an upload is running (Save waits for it).
 */
export function DocumentsSection({ draft, update, errors, readOnly, onBusy }: SectionProps & { onBusy: (busy: boolean) => void }) {
  const today = companyDay();
  // The dig-safe record's number and dates (docs/product/records.md §2), under its document.
  const digSafe = (
    <RecordFields
      label="Dig safe"
      values={{ number: draft.dig_safe_number, valid_from: draft.dig_safe_valid_from, expires_on: draft.dig_safe_expires_on }}
      onChange={(p) =>
        update({
          ...('number' in p ? { dig_safe_number: p.number } : {}),
          ...('valid_from' in p ? { dig_safe_valid_from: p.valid_from } : {}),
          ...('expires_on' in p ? { dig_safe_expires_on: p.expires_on } : {}),
        })
      }
      errors={errors}
      paths={{ number: 'dig_safe_number', valid_from: 'dig_safe_valid_from', expires_on: 'dig_safe_expires_on' }}
      readOnly={readOnly}
      today={today}
    />
  );
  if (readOnly) {
    return (
      <Section title="Documents">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <ReadDoc label="Dig Safe" url={draft.dig_safe_url} name={draft.dig_safe_name} required={draft.dig_safe_required} />
          <ReadDoc label="NRA/DNR" url={draft.nra_url} name={draft.nra_name} required={draft.nra_required} />
        </SimpleGrid>
        {digSafe}
        <Divider label="Permits" labelPosition="left" />
        {draft.permits.length === 0 ? (
          <Text size="sm">No permits.</Text>
        ) : (
          draft.permits.map((p, i) => (
            <Stack key={p.key} gap="xs">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <ReadField label={`Permit ${i + 1} type`}>{p.permit_type_title}</ReadField>
                <ReadDoc label="Permit document" url={p.permit_url} name={p.permit_name ?? p.filename} />
              </SimpleGrid>
              <RecordFields label={`Permit ${i + 1}`} values={p} onChange={() => {}} errors={errors} paths={{ number: '', valid_from: '', expires_on: '' }} readOnly today={today} />
            </Stack>
          ))
        )}
      </Section>
    );
  }

  return (
    <Section title="Documents">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <UploadField
          kind="dig_file"
          label="Dig Safe"
          description={draft.dig_safe_required ? 'Required' : 'Not required'}
          value={draft.dig_safe_url ? { url: draft.dig_safe_url, name: draft.dig_safe_name ?? 'Dig Safe document' } : null}
          onChange={(f) =>
            update(f ? { dig_safe_url: f.url, dig_safe_name: f.name, dig_safe_required: 1 } : { dig_safe_url: null, dig_safe_name: null, dig_safe_required: 0 })
          }
          onBusyChange={onBusy}
          removable
          dropText="Drop the Dig Safe ticket here or click"
        />
        <UploadField
          kind="nra_file"
          label="NRA/DNR"
          description={draft.nra_required ? 'Required' : 'Not required'}
          value={draft.nra_url ? { url: draft.nra_url, name: draft.nra_name ?? 'NRA document' } : null}
          onChange={(f) => update(f ? { nra_url: f.url, nra_name: f.name, nra_required: 1 } : { nra_url: null, nra_name: null, nra_required: 0 })}
          onBusyChange={onBusy}
          removable
          dropText="Drop the NRA/DNR document here or click"
        />
      </SimpleGrid>
      {digSafe}
      <Divider label="Permits" labelPosition="left" />
      <PermitsEditor permits={draft.permits} update={update} errors={errors} onBusy={onBusy} today={today} />
    </Section>
  );
}
