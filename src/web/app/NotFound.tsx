import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { SHELL_MSG } from '../../shared/messages-shell';
import { usePageTitle } from '../components/usePageTitle';

export function NotFound() {
  usePageTitle('Page not found');
  return (
    <Stack align="center" py="xl" gap="sm">
      <Title order={1} size="h2">
        404
      </Title>
      <Text>{SHELL_MSG.notFound}</Text>
      <Anchor component={Link} to="/">
        Go to the start page
      </Anchor>
    </Stack>
  );
}
