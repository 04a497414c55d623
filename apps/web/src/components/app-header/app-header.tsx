import { Avatar, Box, Burger, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { can, type CurrentUser, type Role } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';

import { BrandMark } from '../brand-mark.tsx';
import { IconChevronDown, IconLogout, IconNotes, IconShield, IconUser } from '../icons.tsx';
import classes from './app-header.module.css';
import { getHeaderIdentity } from './header-identity.ts';
import { navItemsFor, type NavItemKey } from './nav-items.ts';

export interface AppHeaderProps {
  user: CurrentUser | null | undefined;
  practiceName: string;
  mobileNavOpened: boolean;
  onToggleMobileNav: () => void;
  onSignOut: () => void;
  signingOut: boolean;
  mobileNavId: string;
  /** The count on the Messages link (0 shows none). */
  unreadMessages?: number;
}

/** The signed-in header: brand, the main links (a burger below 768 px) and the user menu. */
export function AppHeader({
  user,
  practiceName,
  mobileNavOpened,
  onToggleMobileNav,
  onSignOut,
  signingOut,
  mobileNavId,
  unreadMessages = 0,
}: AppHeaderProps) {
  const { t } = useTranslation(['common', 'shared']);
  const identity = getHeaderIdentity(user, {
    fallbackName: t('userFallback.name'),
    fallbackRole: t('userFallback.role'),
    roleLabel: (role: Role) => t(`shared:roles.${role}`),
  });

  return (
    <div className={classes.bar}>
      <a href="#main-content" className={classes.skipLink}>
        {t('skipToContent')}
      </a>
      <Burger
        opened={mobileNavOpened}
        onClick={onToggleMobileNav}
        hiddenFrom="sm"
        size="sm"
        aria-label={mobileNavOpened ? t('nav.closeMenu') : t('nav.openMenu')}
        aria-expanded={mobileNavOpened}
        aria-controls={mobileNavId}
      />
      <Link to="/dashboard" className={classes.brand}>
        <BrandMark size={30} />
        <span className={classes.brandName}>{practiceName}</span>
      </Link>

      <Box component="nav" aria-label={t('nav.label')} className={classes.nav} visibleFrom="sm">
        {navItemsFor(user?.role).map((item) => (
          <NavLink key={item.to} to={item.to} className={classes.navLink}>
            <NavLabel itemKey={item.key} unread={unreadMessages} />
          </NavLink>
        ))}
      </Box>

      <Group ml="auto" gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
        {/* On a phone the links are in the menu, so the unread count shows here too. */}
        {unreadMessages > 0 ? (
          <Box hiddenFrom="sm">
            <Link to="/messages" className={classes.mobileUnread}>
              <NavLabel itemKey="messages" unread={unreadMessages} />
            </Link>
          </Box>
        ) : null}
        <Menu position="bottom-end" width={230} shadow="md" withinPortal>
          <Menu.Target>
            {/* The name and role are the button's accessible name (visible text and name must agree, WCAG
                2.5.3); below the md breakpoint they are visually hidden but still read. */}
            <UnstyledButton className={classes.userButton}>
              <Avatar color="clinical" radius="xl" size={36} variant="filled" aria-hidden>
                {identity.initials}
              </Avatar>
              <Box className={classes.userText}>
                <Text size="sm" fw={600} lineClamp={1}>
                  {identity.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {identity.roleLabel}
                </Text>
              </Box>
              <IconChevronDown size={16} />
            </UnstyledButton>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>
              <Text size="sm" fw={600} c="dark.9" lineClamp={1}>
                {identity.name}
              </Text>
              <Text size="xs" c="dimmed">
                {identity.roleLabel}
              </Text>
            </Menu.Label>
            <Menu.Divider />
            <Menu.Item component={Link} to="/profile" leftSection={<IconUser size={16} />}>
              {t('userMenu.profile')}
            </Menu.Item>
            <Menu.Item component={Link} to="/account/security" leftSection={<IconShield size={16} />}>
              {t('userMenu.security')}
            </Menu.Item>
            {can(user?.role, 'note:index') ? (
              <Menu.Item component={Link} to="/notes" leftSection={<IconNotes size={16} />}>
                {t('userMenu.clinicalNotes')}
              </Menu.Item>
            ) : null}
            <Menu.Divider />
            <Menu.Item leftSection={<IconLogout size={16} />} onClick={onSignOut} disabled={signingOut}>
              {signingOut ? t('userMenu.signingOut') : t('userMenu.logout')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </div>
  );
}

/** The same links, stacked, for the mobile navigation drawer. */
export function MobileNavLinks({
  role,
  onNavigate,
  unreadMessages = 0,
}: {
  role: Role | null | undefined;
  onNavigate: () => void;
  unreadMessages?: number;
}) {
  const { t } = useTranslation();
  return (
    <Box component="nav" aria-label={t('nav.label')}>
      {navItemsFor(role).map((item) => (
        <NavLink key={item.to} to={item.to} className={classes.mobileLink} onClick={onNavigate}>
          <NavLabel itemKey={item.key} unread={unreadMessages} />
        </NavLink>
      ))}
    </Box>
  );
}

/**
 * A link's text; Messages with its unread count as a badge. The badge is hidden from screen readers and the
 * link's accessible name says the count in words instead ("Messages, 2 unread").
 */
function NavLabel({ itemKey, unread }: { itemKey: NavItemKey; unread: number }) {
  const { t } = useTranslation();
  if (itemKey !== 'messages' || unread === 0) return <>{t(`nav.${itemKey}`)}</>;
  return (
    <span aria-label={t('nav.messagesUnread', { count: unread })} role="img" className={classes.navLabelWithBadge}>
      <span aria-hidden="true">{t('nav.messages')}</span>
      <span aria-hidden="true" className={classes.unreadBadge} data-testid="unread-messages">
        {unread > 99 ? '99+' : unread}
      </span>
    </span>
  );
}
