import { useEffect, useState } from 'react';
import { Alert, Button, Group, Image, Modal, Paper, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { TicketImage } from '../../../shared/tickets.schemas';
import { confirmDialog } from '../../components/confirm';
import { heldReason, PHOTOS_FILLED_BY_OFFICE, saveHeld } from '../../offline/held';
import { useOutbox } from '../../offline/OfflineSync';
import { outbox } from '../../offline/outbox';
import { heldSummary, isPhotoOverLimit, mayDiscard, type NoteChange, type PhotoChange } from '../../offline/outboxLogic';

/**
 * What a crew made that will not reach the ticket — a photo over its 10, the notes and photos of
 * a ticket deleted in the office — shown on the phone's ticket view, kept, savable to the device,
 * and (a photo over the limit) swappable for one of the ticket's photos. Decision 038.
 */

/** A photo still on the phone: its preview from the bytes there, and what becomes of it. */
export function PhonePhoto({ photo, caption }: { photo: PhotoChange; caption: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    const url = URL.createObjectURL(photo.blob);
    setSrc(url);
    return () => URL.revokeObjectURL(url);
  }, [photo.blob]);
  return (
    <Stack gap={2}>
      {src && <Image src={src} alt={`Photo ${photo.fileName}, ${caption.toLowerCase()}`} h={96} fit="cover" radius="sm" />}
      <Text size="xs" c="dimmed">
        {caption}
      </Text>
    </Stack>
  );
}

/** "This ticket was deleted in the office. Your note and photo are still on this phone." */
export function DeletedBanner({ held }: { held: (NoteChange | PhotoChange)[] }) {
  const unsaved = held.filter((e) => e.savedAt == null);
  const notes = held.filter((e) => e.kind === 'note').length;
  return (
    <Alert color="orange" variant="light" role="alert">
      <Stack gap="xs" align="flex-start">
        <Text>This ticket was deleted in the office. {heldSummary(notes, held.length - notes)}</Text>
        {unsaved.length > 0 && <Button onClick={() => void saveHeld(unsaved)}>Save all to this device</Button>}
        {unsaved.length === 0 && held.length > 0 && <Text size="sm">Saved to this device.</Text>}
      </Stack>
    </Alert>
  );
}

/** My notes that will not reach the ticket. */
export function HeldNotes({ notes }: { notes: NoteChange[] }) {
  return notes.map((n) => (
    <Paper key={n.id} withBorder p="sm" bg="orange.0">
      <Text size="xs">Me · not sent, kept on this phone{n.savedAt != null ? ' · saved to this device' : ''}</Text>
      <Text style={{ whiteSpace: 'pre-wrap' }}>{n.text}</Text>
    </Paper>
  ));
}

/**
 * My photos that will not reach the ticket, each with Save to this device, Replace a photo (over
 * the limit, for whoever may delete a ticket's photo, with a connection) and, once saved, Discard.
 * A waiting photo the ticket has no room for (`pending`) is listed here too, not as waiting.
 */
export function HeldPhotos({ photos, deleted, ticketImages, mayReplace }: { photos: PhotoChange[]; deleted: boolean; ticketImages: TicketImage[]; mayReplace: boolean }) {
  const { online } = useOutbox();
  const [replacing, setReplacing] = useState<PhotoChange | null>(null);
  if (photos.length === 0) return null;
  const discard = async (e: PhotoChange) => {
    const ok = await confirmDialog({ title: 'Discard this photo?', message: `${e.fileName} is saved to this device. It will be removed from this phone's list.`, confirmLabel: 'Discard', danger: true });
    if (ok) await outbox.discard(e.id);
  };
  return (
    <Paper withBorder p="sm" bg="orange.0" component="section" aria-label="Photos not on the ticket">
      <Stack gap="xs">
        {!deleted && <Text size="sm">{heldReason(photos.find(isPhotoOverLimit) ?? photos[0]) ?? PHOTOS_FILLED_BY_OFFICE}</Text>}
        {photos.map((p) => (
          <Group key={p.id} role="group" aria-label={`Photo ${p.fileName}`} wrap="nowrap" align="flex-start" gap="sm">
            <div style={{ width: 96, flex: 'none' }}>
              <PhonePhoto photo={p} caption={p.state === 'pending' ? 'No room on the ticket' : 'Kept on this phone'} />
            </div>
            <Stack gap={6} miw={0} align="flex-start">
              {!isPhotoOverLimit(p) && p.state === 'failed' && <Text size="sm">{heldReason(p)}</Text>}
              {p.state !== 'pending' &&
                (p.savedAt == null ? (
                  <Button size="compact-md" variant="light" onClick={() => void saveHeld([p])}>
                    Save to this device
                  </Button>
                ) : (
                  <Text size="sm">Saved to this device</Text>
                ))}
              {isPhotoOverLimit(p) && mayReplace && ticketImages.length > 0 && (
                <>
                  <Button size="compact-md" variant="default" disabled={!online} aria-describedby={online ? undefined : `replace-${p.id}`} onClick={() => setReplacing(p)}>
                    Replace a photo
                  </Button>
                  {!online && (
                    <Text size="xs" id={`replace-${p.id}`}>
                      Needs a connection
                    </Text>
                  )}
                </>
              )}
              {p.state !== 'pending' && mayDiscard(p) && (
                <Button size="compact-md" variant="subtle" color="red" onClick={() => void discard(p)}>
                  Discard
                </Button>
              )}
            </Stack>
          </Group>
        ))}
      </Stack>
      {replacing && <ReplacePhoto photo={replacing} images={ticketImages} onClose={() => setReplacing(null)} />}
    </Paper>
  );
}

/** "Replace which photo?": the ticket's photos; the one tapped is deleted and the held one takes its place. */
function ReplacePhoto({ photo, images, onClose }: { photo: PhotoChange; images: TicketImage[]; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const replace = async (image: TicketImage) => {
    setBusy(true);
    try {
      await outbox.replacePhoto(photo.id, image.id);
      onClose();
    } catch (err) {
      notifications.show({ color: 'red', message: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title="Replace which photo?" size="md">
      <Stack gap="sm">
        <Text size="sm">The photo you tap is deleted from the ticket for everyone, and {photo.fileName} takes its place.</Text>
        <SimpleGrid cols={3} spacing="xs">
          {images.map((img, i) => (
            <UnstyledButton
              key={img.id}
              disabled={busy}
              onClick={() => void replace(img)}
              aria-label={`Replace photo ${i + 1} of ${images.length}${img.taken_at ? `, taken ${new Date(img.taken_at).toLocaleString()}` : ''}`}
            >
              <Image src={img.thumbnailurl || img.url} alt="" h={96} fit="cover" radius="sm" />
            </UnstyledButton>
          ))}
        </SimpleGrid>
      </Stack>
    </Modal>
  );
}
