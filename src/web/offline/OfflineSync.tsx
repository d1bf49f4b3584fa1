import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { signOutHooks, useSession } from '../api/session';
import { dropCopies, restoreAndKeepCopies } from './copies';
import { network } from '../api/network';
import { outbox, type OutboxState } from './outbox';

/** The outbox's state, for the status line and the queue. */
export function useOutbox(): OutboxState {
  return useSyncExternalStore(outbox.subscribe, outbox.getSnapshot);
}

/**
 * Connects the page to the device: the network's comings and goings (api/network.ts), the signed-in user's offline copies and outbox, and persistent storage, which the
 * browser may otherwise evict from a site it deems unused — with a crew's unsent work in it.
 * Renders nothing; mounted once in the app shell.
 */
export function OfflineSync() {
  const qc = useQueryClient();
  const { claims } = useSession();
  const userId = claims?.userId ?? null;

  useEffect(() => {
    const unsubscribe = network.subscribe((online) => outbox.setOnline(online));
    outbox.setOnline(network.isOnline());
    const hook = (id: number) => dropCopies(id);
    signOutHooks.add(hook);
    return () => {
      unsubscribe();
      signOutHooks.delete(hook);
    };
  }, []);

  useEffect(() => {
    let stop: (() => void) | null = null;
    let cancelled = false;
    void outbox.start(userId, qc);
    if (userId !== null) {
      void navigator.storage?.persist?.().catch(() => false);
      void restoreAndKeepCopies(qc, userId).then((unsubscribe) => {
        if (cancelled) unsubscribe();
        else stop = unsubscribe;
      });
    }
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [userId, qc]);

  return null;
}
