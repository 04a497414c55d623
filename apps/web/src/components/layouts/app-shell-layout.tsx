import { AppShell, Container } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { CurrentUser } from '@telehealth/shared';
import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';

import { useUnreadMessageCount } from '../../lib/unread-messages.ts';
import { AppHeader, MobileNavLinks } from '../app-header/index.ts';

export interface AppShellLayoutProps {
  user: CurrentUser | null | undefined;
  practiceName: string;
  onSignOut: () => void;
  signingOut: boolean;
  children: ReactNode;
}

const MOBILE_NAV_ID = 'mobile-navigation';

/** The frame of every signed-in screen: header, mobile navigation and the main landmark. */
export function AppShellLayout({ user, practiceName, onSignOut, signingOut, children }: AppShellLayoutProps) {
  const [mobileNavOpened, mobileNav] = useDisclosure(false);
  const closeMobileNav = mobileNav.close;
  const { pathname } = useLocation();
  // The Messages link's unread badge.
  const unreadMessages = useUnreadMessageCount(!!user);

  // Any navigation closes the mobile menu (also the browser's back button).
  useEffect(() => {
    closeMobileNav();
  }, [pathname, closeMobileNav]);

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: 280, breakpoint: 'sm', collapsed: { mobile: !mobileNavOpened, desktop: true } }}
      padding={0}
    >
      <AppShell.Header>
        <AppHeader
          user={user}
          practiceName={practiceName}
          mobileNavOpened={mobileNavOpened}
          onToggleMobileNav={mobileNav.toggle}
          onSignOut={onSignOut}
          signingOut={signingOut}
          mobileNavId={MOBILE_NAV_ID}
          unreadMessages={unreadMessages}
        />
      </AppShell.Header>
      <AppShell.Navbar id={MOBILE_NAV_ID} p="sm" hiddenFrom="sm" inert={!mobileNavOpened}>
        <MobileNavLinks role={user?.role} onNavigate={closeMobileNav} unreadMessages={unreadMessages} />
      </AppShell.Navbar>
      <AppShell.Main id="main-content" tabIndex={-1} bg="gray.0" style={{ outline: 'none' }}>
        <Container size="xl" py={{ base: 'lg', sm: 'xl' }} px={{ base: 'md', sm: 'xl' }}>
          {children}
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
