import { Badge } from '@mantine/core';
import type { AccessRequestStatus } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

const STATUS_COLORS: Record<AccessRequestStatus, string> = { new: 'blue', approved: 'teal', declined: 'gray' };

/** A request's status as a small badge. */
export function AccessRequestStatusBadge({ status }: { status: AccessRequestStatus }) {
  const { t } = useTranslation('access-review');
  return (
    <Badge
      variant="light"
      radius="sm"
      color={STATUS_COLORS[status]}
      style={{ flexShrink: 0, '--badge-color': `var(--mantine-color-${STATUS_COLORS[status]}-9)` }}
    >
      {t(`status.${status}`)}
    </Badge>
  );
}
