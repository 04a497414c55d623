import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { AccessDenied } from './access-denied.tsx';

/** The patient portal's pages (/my/*): Access Denied for staff, whose accounts have no patient record of their own. */
export function PortalOnly({ allowed, children }: { allowed: boolean; children: ReactNode }) {
  const { t } = useTranslation('common');
  if (!allowed) {
    return (
      <AccessDenied
        message={t('accessDenied.portal')}
        action={{ to: '/dashboard', label: t('accessDenied.backToDashboard') }}
      />
    );
  }
  return children;
}
