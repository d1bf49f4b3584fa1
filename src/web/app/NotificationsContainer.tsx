import { Notifications } from '@mantine/notifications';

/** The lazy half of NotificationsHost: its own module, so Mantine's container lands in its own chunk. */
export function NotificationsContainer(_: { opened: boolean }) {
  return <Notifications position="top-center" />;
}
