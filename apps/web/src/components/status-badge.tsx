import { Badge } from '@mantine/core';

/** A deep green that keeps 7:1 on teal-0 (Mantine's darkest teal, teal-9, is only 4.3:1 on its light badge ground). */
const ACTIVE_TEXT = '#065f46';

/** Active or Inactive as a small badge, its text at AA contrast or better on its tinted ground. */
export function StatusBadge({ active, label }: { active: boolean; label: string }) {
  return (
    <Badge
      variant="light"
      radius="sm"
      style={{
        flexShrink: 0,
        '--badge-bg': active ? 'var(--mantine-color-teal-0)' : 'var(--mantine-color-gray-1)',
        '--badge-color': active ? ACTIVE_TEXT : 'var(--mantine-color-gray-8)',
      }}
    >
      {label}
    </Badge>
  );
}
