import { useRef, useState } from 'react';
import { ActionIcon, Alert, Button, FileButton, Group, Image, Paper, Progress, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { Dropzone, type FileWithPath } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { confirmDialog } from '../../../components/confirm';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { IconPhotoPlus, IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { LIMITS } from '../../../../shared/constants';
import { MSG } from '../../../../shared/messages';
import type { TicketImage } from '../../../../shared/tickets.schemas';
import { IMAGE_TYPES } from '../../../../shared/uploads';
import { queryKeys } from '../../../api/queryKeys';
import { UploadError, uploadWithProgress } from '../../../components/upload/signedUpload';
import { useCompleteImageUpload } from '../api/completeImageUpload';
import { useDeleteImage } from '../api/deleteImage';
import { PhotoChecks } from '../../../components/Evidence';
import { PhotoViewer } from './PhotoViewer';
import { tooManyImages } from './ticketDraft';

const ACCEPT = Object.fromEntries(Object.entries(IMAGE_TYPES).map(([t, exts]) => [t, exts.map((e) => `.${e}`)]));

const isImage = (f: File) => f.type.startsWith('image/') && f.type !== 'image/svg+xml';

/**
 * The ticket's photos (docs/product/screens.md §6.5 Images, §5, §7 Uploads, §8): a grid of thumbnails, the photos full
 * screen (PhotoViewer), delete with confirmation, and upload by picker or drag-and-drop. Each photo goes
 * through the signed upload (with progress) and is then recorded with s3-upload-complete; the
 * server makes the thumbnail and refuses an 11th photo too.
 */
export function ImagesPanel({
  ticketId,
  jobId,
  images,
  canAnnotate,
  onViewerChange,
}: {
  ticketId: number;
  jobId: number;
  images: TicketImage[];
  canAnnotate: boolean;
  /** Every open Mantine modal closes on Escape: the ticket window stands down while the viewer is open. */
  onViewerChange?: (open: boolean) => void;
}) {
  const qc = useQueryClient();
  const del = useDeleteImage(jobId);
  const complete = useCompleteImageUpload();
  const [viewing, setViewingState] = useState<number | null>(null);
  const setViewing = (i: number | null) => {
    setViewingState(i);
    onViewerChange?.(i !== null);
  };
  const [alert, setAlert] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number; fraction: number; name: string } | null>(null);
  const resetPicker = useRef<() => void>(null);

  const upload = async (files: File[]) => {
    resetPicker.current?.(); // so that picking the same photo again still triggers a change
    setAlert(null);
    if (files.length === 0) return;
    if (files.some((f) => !isImage(f))) {
      setAlert(`Only images can be uploaded here (JPEG, PNG, GIF, WebP, AVIF). ${files.filter((f) => !isImage(f)).map((f) => f.name).join(', ')} is not one.`);
      return;
    }
    if (tooManyImages(images.length, files.length)) {
      setAlert(MSG.tooManyImages);
      return;
    }
    const errors: string[] = [];
    for (const [i, file] of files.entries()) {
      setProgress({ done: i, total: files.length, fraction: 0, name: file.name });
      let url: string;
      try {
        const up = await uploadWithProgress('media', file, {
          onProgress: (fraction) => setProgress({ done: i, total: files.length, fraction, name: file.name }),
        });
        url = up.url;
      } catch (err) {
        errors.push(`${file.name}: ${err instanceof UploadError || err instanceof Error ? err.message : MSG.uploadError}`);
        continue;
      }
      try {
        await complete.mutateAsync({ ticketId, url });
      } catch (err) {
        errors.push(`${file.name}: ${(err as Error).message || MSG.imageSaveFailed}`);
      }
    }
    setProgress(null);
    await qc.invalidateQueries({ queryKey: queryKeys.ticket(ticketId) });
    void qc.invalidateQueries({ queryKey: queryKeys.job(jobId) });
    if (errors.length) setAlert(MSG.imageUploadError(errors.join('; ')));
    else notifications.show({ color: 'green', message: `${files.length} photo${files.length === 1 ? '' : 's'} uploaded.` });
  };

  const confirmDelete = (img: TicketImage) =>
    void confirmDialog({ title: 'Delete image', message: MSG.confirmDeleteImage, confirmLabel: 'Delete', danger: true }).then(
      (yes) =>
        yes &&
        del.mutate(
          { id: img.id, ticketId },
          {
            onSuccess: () => setViewing(null),
            onError: () => setAlert(MSG.imageDeleteError),
          },
        ),
    );

  const busy = progress !== null;
  const full = images.length >= LIMITS.imagesPerTicket;
  const overall = progress ? ((progress.done + progress.fraction) / progress.total) * 100 : 0;

  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={5}>
            Images ({images.length}/{LIMITS.imagesPerTicket})
          </Title>
          {canAnnotate && (
            <FileButton
              onChange={(f) => void upload(f)}
              accept={Object.keys(IMAGE_TYPES).join(',')}
              multiple
              disabled={busy || full}
              inputProps={{ 'aria-label': 'Choose photos' }}
              resetRef={resetPicker}
            >
              {(props) => (
                <Button {...props} size="xs" variant="light" leftSection={<IconPhotoPlus size={14} />} disabled={busy || full}>
                  Add Photos
                </Button>
              )}
            </FileButton>
          )}
        </Group>

        {alert && (
          <Alert color="red" role="alert" withCloseButton onClose={() => setAlert(null)} p="xs">
            {alert}
          </Alert>
        )}
        {progress && (
          <Stack gap={4} role="status" aria-live="polite">
            <Text size="sm">
              Uploading {progress.name} ({progress.done + 1} of {progress.total})… {Math.round(progress.fraction * 100)}%
            </Text>
            <Progress value={overall} aria-label="Photo upload progress" />
          </Stack>
        )}

        {images.length > 0 ? (
          <SimpleGrid cols={{ base: 3, xs: 4, sm: 5 }} spacing="xs" data-testid="image-grid">
            {images.map((img, i) => (
              <div key={img.id} style={{ position: 'relative' }}>
                <UnstyledButton onClick={() => setViewing(i)} aria-label={`View image ${i + 1}`} style={{ display: 'block', width: '100%' }}>
                  <Image src={img.thumbnailurl} alt={`Photo ${i + 1} of pole ${img.pole_name ?? ''}`} radius="sm" h={90} fit="cover" loading="lazy" />
                </UnstyledButton>
                <PhotoChecks image={img} />
                {canAnnotate && (
                  <ActionIcon
                    size={32}
                    color="red"
                    variant="filled"
                    aria-label={`Delete image ${i + 1}`}
                    onClick={() => confirmDelete(img)}
                    style={{ position: 'absolute', top: 4, right: 4 }}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                )}
              </div>
            ))}
          </SimpleGrid>
        ) : (
          <Text size="sm" c="dimmed">
            No photos yet.
          </Text>
        )}

        {canAnnotate && !full && (
          <Dropzone
            onDrop={(files: FileWithPath[]) => void upload(files)}
            onReject={(rej) => setAlert(rej.some((r) => r.errors.some((e) => e.code === 'too-many-files')) ? MSG.tooManyImages : 'Only images can be uploaded here (JPEG, PNG, GIF, WebP, AVIF).')}
            accept={ACCEPT}
            multiple
            maxFiles={LIMITS.imagesPerPick}
            disabled={busy}
            p="sm"
            inputProps={{ 'aria-label': 'Upload photos' }}
          >
            <Group justify="center" gap="xs" style={{ pointerEvents: 'none' }}>
              <IconPhotoUp size={24} stroke={1.5} aria-hidden />
              <div>
                <Text size="sm">Drag photos here or click to choose</Text>
                <Text size="xs" c="dimmed">
                  limit 10 files
                </Text>
              </div>
            </Group>
          </Dropzone>
        )}
      </Stack>

      <PhotoViewer images={images} index={viewing !== null && viewing < images.length ? viewing : null} onIndex={setViewing} onDelete={canAnnotate ? confirmDelete : undefined} />
    </Paper>
  );
}
