import { useState } from 'react';
import { Alert, Badge, Button, Checkbox, Code, Container, CopyButton, Group, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS, type WebhookAttempt, type WebhookEndpoint, type WebhookEventType } from '../../../shared/webhooks.schemas';
import { can } from '../../../shared/permissions';
import { ApiError } from '../../api/client';
import { useSession } from '../../api/session';
import { confirmDialog } from '../../components/confirm';
import { LoadState } from '../../components/LoadState';
import { usePageTitle } from '../../components/usePageTitle';
import { useCreateWebhook, useDeleteWebhook, useResendDelivery, useUpdateWebhook, useWebhookLog, useWebhooks } from './api/webhooks';

/** The server's message for a refusal a person can act on; otherwise a plain one. */
const errorText = (err: unknown, fallback: string) => (err instanceof ApiError && err.status !== 500 ? err.message : fallback);

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

function EventChoice({ value, onChange, label, disabled }: { value: WebhookEventType[]; onChange: (v: WebhookEventType[]) => void; label: string; disabled?: boolean }) {
  return (
    <Checkbox.Group label={label} value={value} onChange={(v) => onChange(v as WebhookEventType[])}>
      <Stack gap={6} mt={6}>
        {WEBHOOK_EVENTS.map((e) => (
          // 24 px boxes (size md): WCAG 2.5.8's minimum target on their own, whatever the labels'
          // wrapping leaves between them (at 20 px axe found two too close under a modal, at random).
          <Checkbox key={e} value={e} size="md" disabled={disabled} label={<><Code>{e}</Code> {WEBHOOK_EVENT_LABELS[e]}</>} />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}

/** Register an endpoint; its secret is shown once, with a copy button. */
function AddEndpoint() {
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([...WEBHOOK_EVENTS]);
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const fieldError = create.error instanceof ApiError ? (create.error.fields.url ?? create.error.fields.events) : undefined;

  async function add() {
    const reply = await create.mutateAsync({ url, events }).catch(() => null);
    if (!reply) return;
    setCreated({ url: reply.webhook.url, secret: reply.secret });
    setUrl('');
  }

  return (
    <Paper withBorder p="lg">
      <Stack>
        <Title order={2} size="h3">
          Add an endpoint
        </Title>
        {created && (
          <Alert color="green" role="status" title="Endpoint added: copy its signing secret now">
            <Stack gap="xs">
              <Text size="sm">
                Deliveries to {created.url} are signed with this secret. It is shown only this once: keep it where your receiver can read it.
              </Text>
              <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} aria-label="Signing secret">
                {created.secret}
              </Code>
              <Group>
                <CopyButton value={created.secret}>
                  {({ copied, copy }) => (
                    <Button size="xs" variant={copied ? 'filled' : 'light'} onClick={copy}>
                      {copied ? 'Copied' : 'Copy secret'}
                    </Button>
                  )}
                </CopyButton>
                <Button size="xs" variant="default" onClick={() => setCreated(null)}>
                  Done
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}
        <TextInput
          label="Endpoint URL"
          description="https:// address of your system that receives the events"
          placeholder="https://example.com/linecrew-hooks"
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={fieldError}
          inputMode="url"
        />
        <EventChoice label="Events to send" value={events} onChange={setEvents} />
        {create.error && !fieldError && (
          <Alert color="red" role="alert">
            {errorText(create.error, 'The endpoint could not be added. Try again.')}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button onClick={() => void add()} loading={create.isPending} disabled={!url.trim() || events.length === 0}>
            Add endpoint
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function AttemptRow({ attempt, onResend, resending }: { attempt: WebhookAttempt; onResend: () => void; resending: boolean }) {
  const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
  return (
    <Paper withBorder p="xs" component="li">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={2} miw={0} style={{ flex: 1 }}>
          <Group gap="xs">
            <Badge color={ok ? 'green' : 'red'} variant="light">
              {attempt.status_code ?? 'No reply'}
            </Badge>
            <Text size="sm" fw={600}>
              {attempt.type}
            </Text>
            <Text size="sm" c="dimmed">
              {attempt.duration_ms} ms
            </Text>
          </Group>
          <Text size="sm">{when(attempt.attempted_at)}</Text>
          {attempt.error && (
            <Text size="sm" c="red.8" style={{ wordBreak: 'break-word' }}>
              {attempt.error}
            </Text>
          )}
          <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
            {attempt.event_id} ·{' '}
            {attempt.delivery_state === 'pending'
              ? `next try ${attempt.next_attempt_at ? when(attempt.next_attempt_at) : 'soon'}`
              : attempt.delivery_state === 'delivered'
                ? 'delivered'
                : 'failed: no more tries'}
          </Text>
        </Stack>
        <Button size="compact-sm" variant="default" onClick={onResend} loading={resending} aria-label={`Resend ${attempt.type} ${attempt.event_id}`} style={{ flexShrink: 0 }}>
          Resend
        </Button>
      </Group>
    </Paper>
  );
}

function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const log = useWebhookLog(endpoint.id, true);
  const resend = useResendDelivery(endpoint.id);
  const attempts = log.data?.attempts;
  return (
    <LoadState query={log} loading="Loading the delivery log" failed="The delivery log could not be loaded">
      {resend.error && (
        <Alert color="red" role="alert">
          {errorText(resend.error, 'Could not resend. Try again.')}
        </Alert>
      )}
      {attempts && attempts.length === 0 && <Text size="sm" c="dimmed">No deliveries yet.</Text>}
      {attempts && attempts.length > 0 && (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={`Delivery log of ${endpoint.url}`}>
          {attempts.map((a) => (
            <AttemptRow key={a.id} attempt={a} onResend={() => resend.mutate(a.delivery_id)} resending={resend.isPending && resend.variables === a.delivery_id} />
          ))}
        </Stack>
      )}
    </LoadState>
  );
}

function EndpointCard({ endpoint }: { endpoint: WebhookEndpoint }) {
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const [logShown, setLogShown] = useState(false);
  const failure = update.error ?? remove.error;

  async function onDelete() {
    const yes = await confirmDialog({
      title: 'Delete endpoint',
      message: `${endpoint.url} will receive no more events. Deliveries still waiting and its log are deleted with it.`,
      confirmLabel: 'Delete endpoint',
      danger: true,
    });
    if (yes) remove.mutate(endpoint.id);
  }

  return (
    <Paper withBorder p="md" component="li" aria-label={endpoint.url}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} style={{ wordBreak: 'break-all' }}>
            {endpoint.url}
          </Text>
          {!endpoint.enabled && (
            <Badge color="gray" style={{ flexShrink: 0 }}>
              Disabled
            </Badge>
          )}
        </Group>
        <Switch
          label="Send events to this endpoint"
          checked={endpoint.enabled}
          disabled={update.isPending}
          onChange={(e) => update.mutate({ id: endpoint.id, enabled: e.currentTarget.checked })}
        />
        <EventChoice
          label="Events"
          value={endpoint.events}
          disabled={update.isPending}
          onChange={(events) => events.length > 0 && update.mutate({ id: endpoint.id, events })}
        />
        {failure && (
          <Alert color="red" role="alert">
            {errorText(failure, 'The change was not saved. Try again.')}
          </Alert>
        )}
        <Group justify="space-between">
          <Button variant="default" size="xs" onClick={() => setLogShown((s) => !s)} aria-expanded={logShown}>
            {logShown ? 'Hide delivery log' : 'Delivery log'}
          </Button>
          <Button variant="default" color="red" size="xs" onClick={() => void onDelete()} loading={remove.isPending}>
            Delete
          </Button>
        </Group>
        {logShown && <DeliveryLog endpoint={endpoint} />}
      </Stack>
    </Paper>
  );
}

/**
 * Webhooks (docs/product/integrations.md §4): an Admin's endpoints, where Linecrew POSTs the
 * company's events, each signed with the endpoint's secret; with its delivery log and Resend.
 */
export default function WebhooksPage() {
  usePageTitle('Webhooks');
  const { claims } = useSession();
  const admin = can(claims?.roleId, 'webhooks.manage');
  const list = useWebhooks(admin);
  if (!admin) {
    return (
      <Container size="sm" py="md">
        <Alert color="yellow" role="status" title="Webhooks">
          Only an Admin manages webhooks.
        </Alert>
      </Container>
    );
  }
  const endpoints = list.data?.webhooks;
  return (
    <Container size="md" py="md">
      <Stack>
        <Title order={1} size="h2">
          Webhooks
        </Title>
        <Text size="sm">
          Linecrew POSTs each event to your endpoints as JSON, signed as Standard Webhooks do (<Code>webhook-id</Code>,{' '}
          <Code>webhook-timestamp</Code>, <Code>webhook-signature</Code>), and tries again for 24 hours until your endpoint answers 2xx.
        </Text>
        <AddEndpoint />
        <Title order={2} size="h3">
          Endpoints
        </Title>
        <LoadState query={list} loading="Loading the endpoints" failed="The endpoints could not be loaded">
          {endpoints && endpoints.length === 0 && <Text c="dimmed">No endpoints yet.</Text>}
          {endpoints && endpoints.length > 0 && (
            <Stack gap="md" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
              {endpoints.map((e) => (
                <EndpointCard key={e.id} endpoint={e} />
              ))}
            </Stack>
          )}
        </LoadState>
      </Stack>
    </Container>
  );
}
