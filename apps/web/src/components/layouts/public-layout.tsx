import '../mantine-styles.ts';
import { Anchor, Box, Button, Container, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { BrandMark } from '../brand-mark.tsx';
import { CrisisLines } from '../crisis-lines.tsx';

export interface PublicLayoutProps {
  practiceName: string;
  /** Pages that show the crisis lines prominently themselves leave them out of the footer. */
  crisisLinesInFooter?: boolean;
  children: ReactNode;
}

/** The frame of the public pages: a slim top bar, the page, and a footer with the crisis lines. */
export function PublicLayout({ practiceName, crisisLinesInFooter = true, children }: PublicLayoutProps) {
  const { t } = useTranslation(['common', 'screens']);
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }} bg="gray.0">
      <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="lg" h={64}>
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Anchor component={Link} to="/" underline="never" c="clinical.9" fw={700} fz="lg" miw={0} lh={1.2}>
              <Group gap={10} wrap="nowrap">
                <BrandMark size={30} />
                <span>{practiceName}</span>
              </Group>
            </Anchor>
            <Button component={Link} to="/login" variant="filled" style={{ flexShrink: 0 }}>
              {t('screens:login')}
            </Button>
          </Group>
        </Container>
      </Box>
      <Box component="main" id="main-content" style={{ flex: 1 }}>
        {children}
      </Box>
      <Box component="footer" bg="white" py="lg" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="lg">
          {crisisLinesInFooter ? <CrisisLines mb="md" /> : null}
          <Text size="sm" c="dimmed">
            {t('landing.footer', { year: new Date().getFullYear(), practiceName })}
          </Text>
        </Container>
      </Box>
    </Box>
  );
}
