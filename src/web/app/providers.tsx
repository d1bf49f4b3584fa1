import type { ReactNode } from 'react';
import {
  MantineProvider,
  createTheme,
  darken,
  defaultVariantColorsResolver,
  parseThemeColor,
  type CSSVariablesResolver,
  type VariantColorsResolver,
} from '@mantine/core';
import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { ConfirmHost } from '../components/confirm';
import { network } from '../api/network';
import { NotificationsHost } from './NotificationsHost';

/**
 * WCAG AA contrast (4.5 : 1 for text) everywhere, since crews read this in sunlight: Mantine's
 * default blue (shade 6) carries white text at only 3.3 : 1, so buttons, links and the active
 * states use shade 8 (5 : 1); filled colours too light for white text (green 8 is 3.4 : 1) get
 * dark text (autoContrast with a lower luminance threshold); the "light" variant's text is
 * darkened (green 9 on green 1 is 3.8 : 1); hints and secondary text ("dimmed", gray 6 =
 * 3.3 : 1) use gray 7; every modal's and drawer's close button has a name, and their title bar
 * is no second banner landmark. Fixed here once, not per screen.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'light') return colors;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  const base = parsed.isThemeColor && parsed.color ? input.theme.colors[parsed.color][9] : parsed.value;
  return { ...colors, color: darken(base, 0.3), hoverColor: darken(base, 0.3) };
};

const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  autoContrast: true,
  luminanceThreshold: 0.2,
  variantColorResolver,
  defaultRadius: 'sm',
  components: {
    // Plain entries, not Modal.extend() and the like: importing a component here puts it in the
    // entry chunk of every page — Modal and Drawer bring ScrollArea and floating-ui (~20 KB
    // gzip), @mantine/dates the whole date library (~25 KB), Notification its own code (only the
    // notifications' lazy container shows one) — though first paint needs none.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
    // A modal's or drawer's title bar is a <header> in Mantine, which outside a sectioning element
    // is a banner landmark: a screen reader listed a second "banner" beside the app's own for every
    // open dialog (axe best-practice landmark-no-duplicate-banner). A div has no landmark role.
    ModalHeader: { defaultProps: { component: 'div' } },
    DrawerHeader: { defaultProps: { component: 'div' } },
    DatePickerInput: { defaultProps: { clearButtonProps: { 'aria-label': 'Clear date' } } },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss notification' } } },
  },
});
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  // Placeholders are text too: gray 5 is 2.1 : 1; #6c757d is 4.7 : 1 and still reads as a hint.
  // Field errors in red 6 are 3.3 : 1; red 9 is 5.5 : 1.
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': '#6c757d',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});

// TanStack Query assumes it is online until an `offline` event: a page opened without network
// would then send its reads, fail, and show errors instead of waiting with its offline copy.
// TanStack pauses queries and mutations while offline: it follows the app's one network state
// (api/network.ts: failed calls and a probe, not only navigator.onLine).
onlineManager.setEventListener((setOnline) => network.subscribe(setOnline));
onlineManager.setOnline(network.isOnline());

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      // Retrying a 4xx only repeats the same answer; retry network and server failures once.
      retry: (count, err) => count < 1 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={queryClient}>
        <NotificationsHost />
        <ConfirmHost />
        {children}
      </QueryClientProvider>
    </MantineProvider>
  );
}
