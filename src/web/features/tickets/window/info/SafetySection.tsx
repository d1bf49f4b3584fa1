import { SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { LIMITS } from '../../../../../shared/constants';
import { orNull, text } from '../inputText';
import { ReadField } from '../ReadField';
import { fieldError } from '../ticketDraft';
import { Section, type SectionProps } from './Section';

/** Safety: the EHASP and the ambulance meet-up. */
export function SafetySection({ draft, update, errors, readOnly }: SectionProps) {
  const textProps = (field: 'ehasp' | 'ambulance_meetup') => ({
    value: text(draft[field]),
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => update({ [field]: orNull(e.currentTarget.value) }),
    error: fieldError(errors, field),
  });
  return (
    <Section title="Safety">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        {readOnly ? (
          <>
            <ReadField label="EHASP">{draft.ehasp}</ReadField>
            <ReadField label="Ambulance meet-up" multiline>
              {draft.ambulance_meetup}
            </ReadField>
          </>
        ) : (
          <>
            <TextInput label="EHASP" {...textProps('ehasp')} maxLength={LIMITS.shortTextMax} />
            <Textarea label="Ambulance meet-up" {...textProps('ambulance_meetup')} autosize minRows={1} maxLength={LIMITS.textMax} />
          </>
        )}
      </SimpleGrid>
    </Section>
  );
}
