import { useNotifications } from '@mantine/notifications';
import { lazyDialog } from '../components/lazyDialog';

// Mantine's notification container (its transitions, swipe-to-dismiss and portal, ~7 KB gzip)
// loads with the first notification; until then only the store that notifications.show() fills
// is in the entry chunk (the initial JavaScript budgets, docs/product/scale.md §3). It stays mounted after that (lazyDialog),
// so later notifications animate in.
const NotificationsContainer = lazyDialog(() => import('./NotificationsContainer').then((m) => m.NotificationsContainer));

/** Mounted once in the app shell. */
export function NotificationsHost() {
  const { notifications, queue } = useNotifications();
  return <NotificationsContainer opened={notifications.length + queue.length > 0} />;
}
