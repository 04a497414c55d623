import { Paper, Stack, Text, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';

/** A titled group of fields: a landmark-free section that screen readers can jump to by its heading. */
export function FormSection({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Paper component="section" aria-labelledby={headingId} withBorder p={{ base: 'md', sm: 'lg' }} shadow="xs">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id={headingId}>
            {title}
          </Title>
          {description ? (
            <Text size="sm" c="dimmed" mt={2}>
              {description}
            </Text>
          ) : null}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
