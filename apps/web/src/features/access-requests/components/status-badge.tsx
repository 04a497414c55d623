import { Badge } from '@mantine/core';
import type { AccessRequestStatus } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

/**
 * Ground and text of each status. Approved uses the deep green of the shared status badge: Mantine's teal-9 is
 * only 4.3:1 on its light ground.
 */
const STATUS_STYLES: Record<AccessRequestStatus, { bg: string; text: string }> = {
  new: { bg: 'var(--mantine-color-blue-light)', text: 'var(--mantine-color-blue-9)' },
  approved: { bg: 'var(--mantine-color-teal-0)', text: '#065f46' },
  declined: { bg: 'var(--mantine-color-gray-light)', text: 'var(--mantine-color-gray-9)' },
};

/** A request's status as a small badge. */
export function AccessRequestStatusBadge({ status }: { status: AccessRequestStatus }) {
  const { t } = useTranslation('access-review');
  return (
    <Badge
      variant="light"
      radius="sm"
      style={{
        flexShrink: 0,
        '--badge-bg': STATUS_STYLES[status].bg,
        '--badge-color': STATUS_STYLES[status].text,
      }}
    >
      {t(`status.${status}`)}
    </Badge>
  );
}
