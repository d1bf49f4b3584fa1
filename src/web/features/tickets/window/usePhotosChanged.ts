import { useMemo, useRef } from 'react';
import type { Ticket } from '../../../../shared/tickets.schemas';

/**
 * Photos are stored the moment they are added or deleted (ImagesPanel), not with Save: the
 * footer and the close question say so once the photos differ from those the window opened with.
 */
export function usePhotosChanged(ticket: Ticket | undefined, foreign: boolean) {
  const images = useMemo(() => ticket?.images ?? [], [ticket]);
  const imageIds = images.map((i) => i.id).join(',');
  const openedWith = useRef<string | null>(null);
  if (ticket && !foreign && openedWith.current === null) openedWith.current = imageIds;
  return { images, photosChanged: openedWith.current !== null && imageIds !== openedWith.current };
}
