import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type WheelEvent as ReactWheelEvent } from 'react';
import { ActionIcon, Button, Group, Modal, Text, Tooltip } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconTrash, IconZoomIn, IconZoomOut, IconZoomReset } from '@tabler/icons-react';
import type { TicketImage } from '../../../../shared/tickets.schemas';
import { PhotoChecks } from '../../../components/Evidence';

const MAX_ZOOM = 4;
/** A sideways drag longer than this (px) at normal size goes to the next or previous photo. */
const SWIPE = 50;
const WHEN = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

interface View {
  scale: number;
  x: number;
  y: number;
}
const FIT: View = { scale: 1, x: 0, y: 0 };
const clampScale = (s: number) => Math.min(MAX_ZOOM, Math.max(1, s));

/**
 * A ticket's photos full screen: swipe or Previous / Next (buttons, arrow
 * keys), pinch, double-tap, wheel or the buttons to zoom, drag to look around a zoomed photo, and
 * when the photo was added. Mantine's Modal plus pointer events: no gallery library needed.
 */
export function PhotoViewer({
  images,
  index,
  onIndex,
  onDelete,
}: {
  images: TicketImage[];
  /** The photo shown; null = closed. */
  index: number | null;
  onIndex: (i: number | null) => void;
  /** Shown when the person may delete photos. */
  onDelete?: (img: TicketImage) => void;
}) {
  const img = index !== null ? images[index] : undefined;
  return (
    <Modal
      opened={img !== undefined}
      onClose={() => onIndex(null)}
      fullScreen
      zIndex={300}
      title={img && index !== null ? `Photo ${index + 1} of ${images.length} · Pole ${img.pole_name ?? ''}, line ${img.line_name ?? ''}` : ''}
      closeButtonProps={{ 'aria-label': 'Close photo' }}
      styles={{ body: { display: 'flex', flexDirection: 'column', height: 'calc(100dvh - 60px)', padding: 0 } }}
    >
      {/* Keyed by photo: each one starts fitted to the screen. */}
      {img && index !== null && <Photo key={img.id} img={img} index={index} count={images.length} onIndex={onIndex} onDelete={onDelete} />}
    </Modal>
  );
}

function Photo({
  img,
  index,
  count,
  onIndex,
  onDelete,
}: {
  img: TicketImage;
  index: number;
  count: number;
  onIndex: (i: number) => void;
  onDelete?: (img: TicketImage) => void;
}) {
  const [view, setView] = useState<View>(FIT);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{ startX: number; startY: number; view: View; dist: number } | null>(null);
  const lastTap = useRef(0);

  const go = (step: number) => {
    if (count > 1) onIndex((index + step + count) % count);
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowRight') go(1);
      else if (e.key === 'ArrowLeft') go(-1);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const zoomTo = (scale: number) => setView((v) => (clampScale(scale) === 1 ? FIT : { ...v, scale: clampScale(scale) }));

  const distance = () => {
    const [a, b] = [...pointers.current.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };
  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    gesture.current = { startX: e.clientX, startY: e.clientY, view, dist: distance() };
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!pointers.current.has(e.pointerId) || !gesture.current) return;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const g = gesture.current;
    if (pointers.current.size >= 2 && g.dist > 0) {
      zoomTo((g.view.scale * distance()) / g.dist);
    } else if (pointers.current.size === 1 && g.view.scale > 1) {
      setView({ ...g.view, x: g.view.x + (e.clientX - g.startX), y: g.view.y + (e.clientY - g.startY) });
    }
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    const g = gesture.current;
    const wasPinch = pointers.current.size >= 2;
    pointers.current.delete(e.pointerId);
    if (!g || wasPinch) {
      // One finger of a pinch lifted: the other one starts afresh.
      const rest = [...pointers.current.values()][0];
      gesture.current = rest ? { startX: rest.x, startY: rest.y, view, dist: 0 } : null;
      return;
    }
    gesture.current = null;
    const dx = e.clientX - g.startX;
    const dy = e.clientY - g.startY;
    if (g.view.scale === 1 && Math.abs(dx) > SWIPE && Math.abs(dx) > Math.abs(dy)) {
      go(dx < 0 ? 1 : -1);
      return;
    }
    if (Math.abs(dx) < 10 && Math.abs(dy) < 10) {
      // A double tap (or double click) zooms in, or back to fit.
      if (e.timeStamp - lastTap.current < 300) {
        zoomTo(view.scale > 1 ? 1 : 2.5);
        lastTap.current = 0;
      } else lastTap.current = e.timeStamp;
    }
  };
  const onWheel = (e: ReactWheelEvent<HTMLDivElement>) => zoomTo(view.scale * (e.deltaY < 0 ? 1.2 : 1 / 1.2));

  return (
        <>
          <div
            data-testid="photo-stage"
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerUp}
            onWheel={onWheel}
            style={{ flex: 1, minHeight: 0, overflow: 'hidden', touchAction: 'none', background: 'var(--mantine-color-dark-8)', display: 'flex', alignItems: 'center', justifyContent: 'center', cursor: view.scale > 1 ? 'grab' : 'zoom-in' }}
          >
            <img
              src={img.url}
              alt={`Full photo of pole ${img.pole_name ?? ''}`}
              draggable={false}
              data-scale={view.scale}
              style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain', transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})`, userSelect: 'none' }}
            />
          </div>
          <Group justify="space-between" p="xs" gap="xs" wrap="wrap">
            <div>
              <Text size="sm" data-testid="photo-time">
                Added {WHEN.format(new Date(img.uploaded_at))}
              </Text>
              <PhotoChecks image={img} size="sm" />
            </div>
            <Group gap="xs" wrap="nowrap">
              <ActionIcon size={44} variant="default" aria-label="Previous photo" onClick={() => go(-1)} disabled={count < 2}>
                <IconChevronLeft size={22} />
              </ActionIcon>
              <ActionIcon size={44} variant="default" aria-label="Zoom out" onClick={() => zoomTo(view.scale / 1.5)} disabled={view.scale <= 1}>
                <IconZoomOut size={22} />
              </ActionIcon>
              <ActionIcon size={44} variant="default" aria-label="Fit to screen" onClick={() => setView(FIT)} disabled={view.scale === 1}>
                <IconZoomReset size={22} />
              </ActionIcon>
              <ActionIcon size={44} variant="default" aria-label="Zoom in" onClick={() => zoomTo(view.scale * 1.5)} disabled={view.scale >= MAX_ZOOM}>
                <IconZoomIn size={22} />
              </ActionIcon>
              <ActionIcon size={44} variant="default" aria-label="Next photo" onClick={() => go(1)} disabled={count < 2}>
                <IconChevronRight size={22} />
              </ActionIcon>
            </Group>
            {onDelete && (
              <Tooltip label="Delete this image">
                <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => onDelete(img)}>
                  Delete
                </Button>
              </Tooltip>
            )}
          </Group>
        </>
  );
}
