import { Anchor, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export interface StatCardProps {
  /** The card's name ("Users"): its heading. */
  label: string;
  /** The figure, large. */
  value: ReactNode;
  /** Lines under the figure. */
  details?: ReactNode[];
  link?: { to: string; label: string };
}

/** One figure of the console: a name, the figure, a few lines of detail, and where to go from it. */
export function StatCard({ label, value, details = [], link }: StatCardProps) {
  return (
    <Paper component="li" withBorder p="md" data-testid="console-stat">
      <Stack gap={4}>
        <Text component="h3" size="sm" fw={600} c="dimmed" m={0}>
          {label}
        </Text>
        <Text fz={26} fw={700} lh={1.2} component="div">
          {value}
        </Text>
        {details.map((detail, index) => (
          <Text key={index} size="sm">
            {detail}
          </Text>
        ))}
        {link ? (
          <Anchor component={Link} to={link.to} size="sm">
            {link.label}
          </Anchor>
        ) : null}
      </Stack>
    </Paper>
  );
}
