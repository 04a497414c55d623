import { Card, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { IconArrowRight } from '../../../components/icons.tsx';
import classes from './link-card.module.css';

export interface LinkCardProps {
  to: string;
  title: string;
  description: string;
  icon: ReactNode;
}

/** A whole card that is one link: icon, title and a line of description. */
export function LinkCard({ to, title, description, icon }: LinkCardProps) {
  return (
    <Card component={Link} to={to} className={classes.card} shadow="xs">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" size={44} radius="md" aria-hidden>
          {icon}
        </ThemeIcon>
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Text fw={650} fz="lg" c="dark.9" lh={1.3}>
            {title}
          </Text>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </Stack>
        <IconArrowRight size={18} className={classes.arrow} />
      </Group>
    </Card>
  );
}
