import { Notifications } from '@mantine/notifications';

/** The lazy half of NotificationsHost: its own module, so Mantine's container lands in its own chunk. */
export default function NotificationsContainer() {
  return <Notifications position="top-center" />;
}
