import { Badge } from '@mantine/core';
import type { AppointmentStatus } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { STATUS_STYLES } from '../utils/appointment-display.ts';

export function AppointmentStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('appointments');
  const known = status in STATUS_STYLES ? (status as AppointmentStatus) : null;
  const style = STATUS_STYLES[known ?? 'completed'];
  return (
    <Badge
      variant="light"
      radius="sm"
      style={{ flexShrink: 0, '--badge-bg': style.background, '--badge-color': style.text }}
    >
      {known ? t(`status.${known}`) : status}
    </Badge>
  );
}
