import { Group, Loader, Text } from '@mantine/core';

/** Something is loading: a small spinner and what is coming, announced to screen readers as a status. */
export function LoadingLine({ label }: { label: string }) {
  return (
    <Group gap="xs" role="status">
      <Loader size="sm" aria-hidden />
      <Text>{label}</Text>
    </Group>
  );
}
