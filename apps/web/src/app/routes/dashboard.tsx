import { can, DEFAULT_PRACTICE_TIME_ZONE } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { MyAppointments, TodaysAppointments, VisitRequests } from '../../features/appointments/index.ts';
import { TreatmentPlansDue } from '../../features/clinical-record/index.ts';
import { PendingQuestionnaires, SafetyAlerts } from '../../features/measures/index.ts';
import { VideoWaitingAlert } from '../../features/video/index.ts';
import { Dashboard } from '../../features/dashboard/index.ts';
import { FirstVisitChecklist } from '../../features/first-visit/index.ts';
import { MyOutcomesCard } from '../../features/outcomes/index.ts';
import { usePageTitle } from '../../hooks/use-page-title.ts';
import { useAppConfig, useCurrentUser } from '../../lib/auth.ts';

/** `/dashboard`. */
function DashboardRoute() {
  const { t } = useTranslation(['common', 'shared', 'screens']);
  const { data: user } = useCurrentUser();
  const { data: config } = useAppConfig();
  usePageTitle(user ? t(`shared:dashboardHeadings.${user.role}`) : t('screens:dashboard'));
  // The protected route renders this only with a user.
  if (!user) return null;
  const schedule =
    user.role === 'provider' ? (
      <>
        <SafetyAlerts />
        <VideoWaitingAlert />
        <TodaysAppointments />
        <VisitRequests />
        {can(user.role, 'outcome:read') ? (
          <MyOutcomesCard timeZone={config?.practiceTimeZone ?? DEFAULT_PRACTICE_TIME_ZONE} />
        ) : null}
        <TreatmentPlansDue />
      </>
    ) : user.role === 'patient' ? (
      <>
        <FirstVisitChecklist />
        <PendingQuestionnaires />
        <MyAppointments />
      </>
    ) : null;
  return <Dashboard user={user} demoMode={config?.demoMode ?? false} version={config?.version} schedule={schedule} />;
}

export { DashboardRoute as Component };
