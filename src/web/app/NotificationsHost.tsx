import { lazy, Suspense, useState } from 'react';
import { useNotifications } from '@mantine/notifications';

// Mantine's notification container (its transitions, swipe-to-dismiss and portal, ~7 KB gzip)
// loads with the first notification; until then only the store that notifications.show() fills
// is in the entry chunk (issue 17's initial JavaScript).
const NotificationsContainer = lazy(() => import('./NotificationsContainer'));

/** Mounted once in the app shell; stays mounted after the first notification so later ones animate in. */
export function NotificationsHost() {
  const { notifications, queue } = useNotifications();
  const waiting = notifications.length + queue.length > 0;
  const [used, setUsed] = useState(waiting);
  if (waiting && !used) setUsed(true);
  if (!used && !waiting) return null;
  return (
    <Suspense fallback={null}>
      <NotificationsContainer />
    </Suspense>
  );
}
