import { Stack } from '@mantine/core';
import type { FormErrors } from '@mantine/form';
import { companyDay } from '../../../../api/session';
import { NotClearToDig } from '../../../../components/DigSafe';
import type { TicketDraft } from '../ticketDraft';
import { DocumentsSection } from './DocumentsSection';
import { LocationSection } from './LocationSection';
import { NotesSection } from './NotesSection';
import { SafetySection } from './SafetySection';
import { StatusBar } from './StatusBar';

/**
 * docs/product/screens.md, entities.md §4, rules.md §2.5 Info tab: where and what, who and when, work orders, notes, permits, the dig-safe
 * and NRA documents (uploading one sets its flag to 1, removing it sets 0), EHASP, ambulance
 * meet-up and the Mark Complete action. `errors`: a refused save's messages, by path of the draft.
 */
export function InfoTab({
  draft,
  update,
  errors,
  canEdit,
  statusLocked = false,
  canAnnotate,
  authorName,
  onMarkStatus,
  saving,
  onBusy,
  images,
}: {
  draft: TicketDraft;
  update: (patch: Partial<TicketDraft>) => void;
  errors: FormErrors;
  canEdit: boolean;
  /** A billed ticket not unlocked: no Mark Complete / Reopen (docs/product/billing.md §5). */
  statusLocked?: boolean;
  canAnnotate: boolean;
  authorName: string;
  onMarkStatus: (status: 'Pending' | 'Complete') => void;
  saving: boolean;
  onBusy: (busy: boolean) => void;
  images: React.ReactNode;
}) {
  const section = { draft, update, errors, readOnly: !canEdit };
  return (
    <Stack gap="md">
      <StatusBar draft={draft} canMark={canEdit && !statusLocked && draft.id != null} onMarkStatus={onMarkStatus} saving={saving} />
      {/* From the draft: a dig-safe date being typed shows its effect before Save. */}
      <NotClearToDig ticket={draft} today={companyDay()} />
      <LocationSection {...section} />
      <NotesSection draft={draft} update={update} canAnnotate={canAnnotate} authorName={authorName} />
      <DocumentsSection {...section} onBusy={onBusy} />
      <SafetySection {...section} />
      {images}
    </Stack>
  );
}
