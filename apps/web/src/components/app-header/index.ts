export { AppHeader, MobileNavLinks, type AppHeaderProps } from './app-header.tsx';
export { getHeaderIdentity, getInitials } from './header-identity.ts';
