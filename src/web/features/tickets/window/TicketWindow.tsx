import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Badge, Button, Center, Group, Modal, Stack, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconEye, IconHistory, IconInfoCircle, IconListCheck, IconMapPin, IconTrash } from '@tabler/icons-react';
import { Spinner } from '../../../components/Spinner';
import type { Job } from '../../../../shared/jobs.schemas';
import { MSG } from '../../../../shared/messages';
import { can } from '../../../../shared/permissions';
import { useSession } from '../../../api/session';
import { BilledNotice } from './BilledNotice';
import { ImagesPanel } from './ImagesPanel';
import { InfoTab } from './info/InfoTab';
import { PoleTab } from './pole/PoleTab';
import { TasksTab } from './TasksTab';
import { TicketHistoryTab } from './TicketHistoryTab';
import type { WindowTarget } from '../ticketUrl';
import { useTicketEditor } from './useTicketEditor';

/** 'Job: J-1' in the window's header. */
function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Text size="sm">
      <Text span c="dimmed">
        {label}:{' '}
      </Text>
      <Text span fw={600}>
        {children}
      </Text>
    </Text>
  );
}

/**
 * The ticket window (docs/product/screens.md §6 Ticket modal, §4 Ticket window): Create Ticket / Edit Ticket with the
 * tabs Pole, Info and Tasks. What it does (working copy, dirty, asking before leaving, saving,
 * the pole and merge flows) is useTicketEditor's; the window renders it, full screen on a phone.
 */
export function TicketWindow({
  job,
  target,
  onOpenTicket,
  onClose,
}: {
  job: Job;
  target: WindowTarget;
  /** Replaces the open ticket (its address too). */
  onOpenTicket: (t: WindowTarget) => void;
  /** Closes the window (its address too). */
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 48em)');
  const t = useTicketEditor({ job, target, onOpenTicket, onClose });
  // An existing ticket opens on its own details (Info), not on the Pole tab's "Find a pole"
  // search (docs/product/rules.md §4.1); a new ticket starts on Pole, since Info and Tasks need a pole first.
  const [tab, setTab] = useState<string | null>(target.id == null ? 'home' : 'info');
  // Focus goes to the tab that is open once the ticket is on screen: a keyboard or screen-reader
  // user starts at the ticket, and nothing pops up a phone's keyboard.
  const openTab = useRef<HTMLButtonElement>(null);
  const focused = useRef(false);
  // Every open Mantine modal closes on Escape: the window stands down while the photo viewer is open.
  const [viewerOpen, setViewerOpen] = useState(false);
  const { draft, ticketId, allowed } = t;
  const { claims } = useSession();
  // Billed and not unlocked: the tasks and status are read-only here, as the server refuses them (docs/product/billing.md §5).
  const billedLocked = !!draft?.billed_at && !draft.unlocked_at;
  const ready = draft != null;
  useEffect(() => {
    if (!ready || focused.current) return;
    focused.current = true;
    // After the modal's own focus trap has placed focus (it runs on open).
    const frame = requestAnimationFrame(() => openTab.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [ready]);
  const activeTab = t.tabsLocked ? 'home' : tab;
  const footerState = t.merging
    ? ''
    : t.dirty
      ? t.photosChanged
        ? 'Unsaved changes (photos are already saved)'
        : 'Unsaved changes'
      : t.justCreated
        ? 'New ticket: add its details and save'
        : t.photosChanged
          ? 'Photos are saved as you add them'
          : '';

  return (
    <Modal
      opened
      onClose={t.requestClose}
      closeOnEscape={!viewerOpen}
      title={ticketId == null ? 'Create Ticket' : 'Edit Ticket'}
      fullScreen={phone}
      size="min(1100px, 96vw)"
      padding={phone ? 'sm' : 'md'}
      closeButtonProps={{ 'aria-label': 'Close ticket window' }}
      styles={{ body: { paddingBottom: 0 } }}
    >
      {!draft ? (
        t.loadError !== null ? (
          <Alert color="red" role="alert">
            {t.loadError}
          </Alert>
        ) : (
          <Center py="xl">
            <Spinner label="Loading ticket" />
          </Center>
        )
      ) : (
        <Stack gap="sm">
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Group gap="lg" wrap="wrap">
              <Fact label="Job">{job.job_number}</Fact>
              <Fact label="Utility">{job.selected_utility_name}</Fact>
              {draft.pole && draft.pole.pole_name && (
                <Fact label="Pole">
                  {draft.pole.pole_name} / {draft.pole.line_name}
                </Fact>
              )}
            </Group>
            {!allowed.edit && (
              // Roles 5 and 6 read the ticket and add notes and photos only (docs/product/roles-and-statuses.md).
              <Group gap={6} wrap="nowrap" data-testid="view-only">
                <Badge variant="outline" color="gray" leftSection={<IconEye size={14} />}>
                  View only
                </Badge>
                <Text size="xs" c="dimmed">
                  You can add notes and photos.
                </Text>
              </Group>
            )}
            {allowed.write && ticketId != null && (
              <Anchor component="button" type="button" c="red" size="sm" onClick={t.requestDelete}>
                <Group gap={4}>
                  <IconTrash size={14} /> Delete Ticket
                </Group>
              </Anchor>
            )}
          </Group>

          {t.stale && (
            <Alert color="orange" role="alert" title="This ticket changed">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{MSG.staleVersion}</Text>
                <Button size="xs" color="orange" onClick={t.reload}>
                  Reload
                </Button>
              </Stack>
            </Alert>
          )}
          <BilledNotice ticket={draft} canUnlock={can(claims?.roleId, 'billing.write')} onUnlocked={t.reload} />
          {t.error && (
            <Alert color="red" role="alert" withCloseButton onClose={t.clearError}>
              {t.error}
            </Alert>
          )}

          <Tabs value={activeTab} onChange={setTab} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="home" leftSection={<IconMapPin size={14} />} ref={activeTab === 'home' ? openTab : undefined}>
                Pole
              </Tabs.Tab>
              <Tabs.Tab value="info" leftSection={<IconInfoCircle size={14} />} disabled={t.tabsLocked} ref={activeTab === 'info' ? openTab : undefined}>
                Info
              </Tabs.Tab>
              <Tabs.Tab value="tasks" leftSection={<IconListCheck size={14} />} disabled={t.tabsLocked}>
                Tasks ({draft.tasks.length})
              </Tabs.Tab>
              {ticketId != null && (
                <Tabs.Tab value="history" leftSection={<IconHistory size={14} />} disabled={t.tabsLocked}>
                  History
                </Tabs.Tab>
              )}
            </Tabs.List>
            <Tabs.Panel value="home" pt="sm">
              <PoleTab
                pole={t.pole}
                basePole={t.basePole}
                canWrite={allowed.write}
                errors={t.errors}
                onPoleChange={t.updatePole}
                onSelect={t.selectPole}
                onAddPole={t.addPole}
                addingPole={t.busy.addingPole}
                addPoleError={t.addPoleError}
                onSavePole={allowed.write && t.poleChanged ? t.savePole : null}
                savingPole={t.busy.savingPole}
                needsMerge={t.merging}
                onMerge={t.merge}
                merging={t.busy.merging}
                isNew={ticketId == null}
              />
            </Tabs.Panel>
            <Tabs.Panel value="info" pt="sm">
              <InfoTab
                draft={draft}
                update={t.update}
                errors={t.errors}
                canEdit={allowed.edit}
                statusLocked={billedLocked}
                canAnnotate={allowed.annotate}
                authorName={t.authorName}
                onMarkStatus={t.markStatus}
                saving={t.busy.saving}
                onBusy={t.onUploadBusy}
                images={
                  ticketId != null ? (
                    <ImagesPanel ticketId={ticketId} jobId={job.id} images={t.images} canAnnotate={allowed.annotate} onViewerChange={setViewerOpen} />
                  ) : (
                    <Text size="sm" c="dimmed">
                      Save the ticket to add photos.
                    </Text>
                  )
                }
              />
            </Tabs.Panel>
            <Tabs.Panel value="tasks" pt="sm">
              <TasksTab tasks={draft.tasks} errors={t.errors} utilityId={job.selected_utility_id} canEdit={allowed.edit && !billedLocked} onChange={(tasks) => t.update({ tasks })} />
            </Tabs.Panel>
            {ticketId != null && (
              <Tabs.Panel value="history" pt="sm">
                <TicketHistoryTab ticketId={ticketId} />
              </Tabs.Panel>
            )}
          </Tabs>

          <Group
            justify="space-between"
            py="sm"
            style={{ position: 'sticky', bottom: 0, background: 'var(--mantine-color-body)', borderTop: '1px solid var(--mantine-color-gray-3)', zIndex: 2 }}
          >
            <Text size="sm" c="dimmed" data-testid="ticket-footer-state">
              {footerState}
            </Text>
            <Group gap="xs">
              <Button variant="default" onClick={t.requestClose}>
                Close
              </Button>
              {!t.merging && (
                <Button onClick={t.save} disabled={!t.saveAllowed} loading={t.busy.saving || t.busy.savingPole}>
                  Save
                </Button>
              )}
            </Group>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
