import { useState } from 'react';
import { Alert, Button, Code, CopyButton, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import type { ApiTokenItem } from '../../../shared/api-tokens.schemas';
import { formatLongDate } from '../../../shared/dates';
import { ApiError } from '../../api/client';
import { confirmDialog } from '../../components/confirm';
import { LoadState } from '../../components/LoadState';
import { useApiTokens, useCreateApiToken, useRevokeApiToken, useTokenRoles } from './api/apiTokens';

function TokenRow({ token, roleName, onRevoke, revoking }: { token: ApiTokenItem; roleName: string; onRevoke: () => void; revoking: boolean }) {
  const expired = token.expires_at !== null && Date.parse(token.expires_at) <= Date.now();
  return (
    <Paper withBorder p="sm" component="li" aria-label={`API token ${token.name}`}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={2} miw={0} style={{ flex: 1 }}>
          <Text fw={600}>{token.name}</Text>
          <Text size="sm" c="dimmed">
            {roleName} · ends in …{token.hint} · made by {token.created_by_name} on {formatLongDate(token.created_at)}
          </Text>
          <Text size="sm" c="dimmed">
            {token.last_used_at ? `Last used ${formatLongDate(token.last_used_at)}` : 'Never used'}
            {token.expires_at ? ` · ${expired ? 'Expired' : 'Expires'} ${formatLongDate(token.expires_at)}` : ' · Does not expire'}
          </Text>
        </Stack>
        <Button variant="default" color="red" size="compact-sm" style={{ flexShrink: 0 }} onClick={onRevoke} loading={revoking} aria-label={`Revoke ${token.name}`}>
          Revoke
        </Button>
      </Group>
    </Paper>
  );
}

/**
 * "API tokens" on the User page, for Admins (docs/product/integrations.md §API tokens): the
 * company's tokens with their last use, a form to make one (its secret shown once, with Copy),
 * and Revoke, which asks first: the system using it stops at once.
 */
export function ApiTokensCard() {
  const query = useApiTokens();
  const roles = useTokenRoles();
  const create = useCreateApiToken();
  const revoke = useRevokeApiToken();
  const [name, setName] = useState('');
  const [role, setRole] = useState<string | null>(null);
  const [expires, setExpires] = useState('');
  const tokens = query.data?.tokens;
  const roleOptions = (roles.data ?? []).map((r) => ({ value: String(r.id), label: r.display_role_name }));
  const roleName = (id: number) => roles.data?.find((r) => r.id === id)?.display_role_name ?? `Role ${id}`;
  const failure = create.error ?? revoke.error;

  function submit() {
    if (!role) return;
    // A date means "valid through that day" in the Admin's own time zone.
    const expires_at = expires ? new Date(`${expires}T23:59:59`).toISOString() : null;
    create.mutate({ name, role_id: Number(role), expires_at }, { onSuccess: () => setName('') });
  }

  async function askRevoke(token: ApiTokenItem) {
    const yes = await confirmDialog({
      title: `Revoke ${token.name}`,
      message: 'The system using this token is refused from its next request. This cannot be undone: to connect it again, make a new token.',
      confirmLabel: 'Revoke',
      cancelLabel: 'Cancel',
      danger: true,
    });
    if (yes) revoke.mutate(token.id);
  }

  return (
    <Paper withBorder p="lg" mt="md">
      <Stack>
        <Title order={2} size="h3">
          API tokens
        </Title>
        <Text size="sm">
          A token lets another system (accounting, ERP, a utility portal) use Linecrew as you, at the role you choose. Send it as{' '}
          <Code>Authorization: Bearer lc_…</Code>.
        </Text>
        {failure && (
          <Alert color="red" role="alert">
            {failure instanceof ApiError ? failure.message : 'That did not work. Try again.'}
          </Alert>
        )}
        {create.data && (
          <Alert color="green" role="status" title="Token made: copy it now">
            <Stack gap="xs">
              {/* The name in the body, not the title: Mantine's title does not wrap a long name at 390 px. */}
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {create.data.token.name}: it is shown only this once.
              </Text>
              {/* Wrapped, so that the whole secret can be read (and checked) on a phone too. */}
              <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} aria-label="New API token">
                {create.data.secret}
              </Code>
              <CopyButton value={create.data.secret}>
                {({ copied, copy }) => (
                  <Button size="compact-sm" variant="light" onClick={copy} w="fit-content">
                    {copied ? 'Copied' : 'Copy token'}
                  </Button>
                )}
              </CopyButton>
            </Stack>
          </Alert>
        )}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Stack gap="xs">
            <TextInput label="Name" description="Which system uses it" value={name} onChange={(e) => setName(e.currentTarget.value)} required maxLength={255} />
            <Select label="Role" description="What it may do: your role or a lower one" data={roleOptions} value={role} onChange={setRole} required allowDeselect={false} />
            <TextInput label="Expires" description="Optional: the last day it works" type="date" value={expires} onChange={(e) => setExpires(e.currentTarget.value)} />
            <Group>
              <Button type="submit" loading={create.isPending} disabled={!name.trim() || !role}>
                Make token
              </Button>
            </Group>
          </Stack>
        </form>
        {!tokens ? (
          <LoadState query={query} loading="Loading API tokens" failed="The API tokens could not be loaded" />
        ) : tokens.length === 0 ? (
          <Text size="sm" c="dimmed">
            No API tokens yet.
          </Text>
        ) : (
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="API tokens">
            {tokens.map((t) => (
              <TokenRow key={t.id} token={t} roleName={roleName(t.role_id)} revoking={revoke.isPending && revoke.variables === t.id} onRevoke={() => void askRevoke(t)} />
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
