import { useEffect, useRef, useState } from 'react';
import { Anchor, Box, Burger, Container, Group, Paper, Text } from '@mantine/core';
import { useClickOutside, useMediaQuery } from '@mantine/hooks';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { CREW_LINK_ROLE_THRESHOLD, ROLE } from '../../shared/constants';
import { can } from '../../shared/permissions';
import { useSession } from '../api/session';
import { SyncStatus } from '../offline/SyncStatus';
import { OfflineSync } from '../offline/OfflineSync';
import { OthersWaiting } from '../offline/WaitingNotice';
import { UpdatePrompt } from './UpdatePrompt';
import { useLogout } from '../features/auth/useLogout';
import classes from './Layout.module.css';

function NavLinks({ roleId, onNavigate }: { roleId: number | undefined; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const links = [
    { to: '/work', label: 'My Work', active: pathname === '/work' || pathname.startsWith('/work/') },
    { to: '/jobs', label: 'Jobs', active: pathname === '/jobs' || pathname === '/job' },
    ...(can(roleId, 'billing.read') ? [{ to: '/dashboard', label: 'Dashboard', active: pathname === '/dashboard' }] : []),
    ...(roleId != null && roleId < CREW_LINK_ROLE_THRESHOLD ? [{ to: '/crew', label: 'Crew', active: pathname === '/crew' }] : []),
    // Unit prices are for roles 1–3 (docs/product/billing.md §2).
    ...(can(roleId, 'billing.read') ? [{ to: '/units', label: 'Unit Library', active: pathname === '/units' }] : []),
    { to: '/user', label: 'User', active: pathname === '/user' },
    // The company's settings (time zone, evidence: decision 047) are an Admin's.
    ...(roleId === ROLE.ADMIN ? [{ to: '/settings', label: 'Settings', active: pathname === '/settings' }] : []),
  ];
  return (
    <>
      {links.map((l) => (
        <NavLink
          key={l.to}
          to={l.to}
          onClick={onNavigate}
          className={classes.link}
          data-active={l.active || undefined}
          aria-current={l.active ? 'page' : undefined}
        >
          {l.label}
        </NavLink>
      ))}
      <MenuLogout onNavigate={onNavigate} />
    </>
  );
}

/** Logout in the menu (decision 039: it was only on the User page, which needs scrolling to on a phone). */
function MenuLogout({ onNavigate }: { onNavigate?: () => void }) {
  const { logout, busy } = useLogout(onNavigate);
  return (
    <button type="button" className={`${classes.link} ${classes.logout}`} onClick={logout} disabled={busy}>
      Logout
    </button>
  );
}

/** Header (hidden on /login and when signed out), page with a 400 ms transition, footer. */
export function Layout() {
  const { status, claims } = useSession();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const small = useMediaQuery('(max-width: 48em)');
  const menuRef = useClickOutside(() => setMenuOpen(false));
  // The header's bar is drawn while the session is still being checked too (its links once it is
  // known): drawn only after, it pushed the whole page down by its height as the page appeared
  // (/work's layout shift of 0.06–0.14; decision 058).
  const showHeader = status !== 'out' && pathname !== '/login';
  const signedIn = status === 'in';

  useEffect(() => setMenuOpen(false), [pathname]);
  const main = useRef<HTMLElement>(null);

  return (
    <Box className={classes.shell}>
      {/* The first Tab stop (decision 042): past the header's links straight to the page. Focus is
          moved by hand so the address keeps no #main (the router reads it). */}
      <a
        href="#main"
        className={classes.skip}
        onClick={(e) => {
          e.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to main content
      </a>
      {showHeader && (
        <header className={classes.header}>
          <Container size="xl" className={classes.headerInner}>
            <Anchor component={Link} to="/" className={classes.logo} aria-label="Linecrew home">
              <img src="/favicon.svg" alt="" width={26} height={26} />
              <span>Linecrew</span>
            </Anchor>
            {!signedIn ? null : small ? (
              <Box ref={menuRef} pos="relative">
                {/* A 44 px tap target. */}
                <Burger opened={menuOpen} onClick={() => setMenuOpen((o) => !o)} aria-label="Toggle navigation" size="sm" w={44} h={44} />
                {menuOpen && (
                  <Paper shadow="md" withBorder className={classes.dropdown} component="nav" aria-label="Main">
                    <NavLinks roleId={claims?.roleId} onNavigate={() => setMenuOpen(false)} />
                  </Paper>
                )}
              </Box>
            ) : (
              <Group gap="xs" component="nav" aria-label="Main">
                <NavLinks roleId={claims?.roleId} />
              </Group>
            )}
          </Container>
        </header>
      )}
      {status === 'in' && <SyncStatus />}
      {status === 'in' && <OthersWaiting />}
      <OfflineSync />
      <UpdatePrompt />
      <main id="main" ref={main} tabIndex={-1} className={classes.main}>
        <div key={pathname} className="page-transition">
          <Outlet />
        </div>
      </main>
      <footer className={classes.footer}>
        <Text size="xs" c="dimmed" ta="center">
          Linecrew · field work for utility line crews
        </Text>
      </footer>
    </Box>
  );
}
