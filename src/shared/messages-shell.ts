/**
 * The messages of the app's frame, which every page may show: the error page, the not-found page
 * and the unsaved-changes question. Part of MSG (messages.ts spreads them in, so each is written
 * once); kept apart so that the frame does not load the whole table (~5 KB gzip) on every page,
 * /work's first load on a phone included.
 */
export const SHELL_MSG = {
  notFound: 'Could not find that URL on this server',
  generic: 'Something went wrong.',
  unsavedChanges: 'You have unsaved changes. If you close you will lose these changes. Close anyway?',
} as const;
