import { Text } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { useOutbox } from './OfflineSync';

const time = (ms: number) =>
  new Date(ms).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/**
 * "Offline copy from Nov 23, 10:42 AM": shown while offline (or the server cannot be reached),
 * above data read from the device, so a crew knows how old what they see is (docs/product/field-mode.md).
 */
export function CopyNote({ updatedAt, unreachable = false }: { updatedAt: number; unreachable?: boolean }) {
  const { online } = useOutbox();
  if ((online && !unreachable) || !updatedAt) return null;
  return (
    <Text size="sm" c="dimmed" data-testid="copy-note">
      <IconCloudOff size={14} aria-hidden style={{ verticalAlign: -2, marginRight: 4 }} />
      Offline copy from {time(updatedAt)}
    </Text>
  );
}
