import { Alert, Button, Card, Checkbox, CopyButton, Group, List, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { recoveryCodesFile } from '../../../lib/two-factor.ts';

/** The ten recovery codes, shown once after the set-up: copy, download, and say they are saved. */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('security');
  const [saved, setSaved] = useState(false);

  const download = () => {
    const url = URL.createObjectURL(recoveryCodesFile(codes, t('codesFileHeading')));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    link.click();
    setTimeout(() => {
      URL.revokeObjectURL(url);
    }, 1000);
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="recovery-codes-heading">
      <Stack gap="md">
        <Title order={2} size="h3" id="recovery-codes-heading">
          {t('codesHeading')}
        </Title>
        <Alert color="yellow" variant="light">
          <Text size="sm" c="dark.9">
            {t('codesIntro')}
          </Text>
        </Alert>
        <List
          type="ordered"
          spacing={4}
          ff="monospace"
          fz="md"
          aria-labelledby="recovery-codes-heading"
          data-testid="recovery-codes"
          style={{ columns: '12em', columnGap: 32 }}
        >
          {codes.map((code) => (
            <List.Item key={code}>{code}</List.Item>
          ))}
        </List>
        <Group>
          <CopyButton value={codes.join('\n')}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? t('copied') : t('copyCodes')}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={download}>
            {t('downloadCodes')}
          </Button>
        </Group>
        <Checkbox
          label={t('savedCodes')}
          checked={saved}
          onChange={(event) => {
            setSaved(event.currentTarget.checked);
          }}
        />
        <Group>
          <Button disabled={!saved} onClick={onDone}>
            {t('done')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
