import { Alert, Button, Group, List, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { InviteVideoGuestInputSchema, issueMessage } from '@telehealth/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { describeError } from '../../../lib/errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useInviteVideoGuest, videoGuestsQueryOptions } from '../api/video-api.ts';

/**
 * The provider invites a family member or a second clinician to this visit: a link by e-mail, for this visit
 * only; the guest waits to be let in like the patient. Up to four people in all.
 */
export function GuestInvite({ appointmentId }: { appointmentId: string }) {
  const { t, i18n } = useTranslation(['video', 'shared']);
  const guests = useQuery(videoGuestsQueryOptions(appointmentId));
  const invite = useInviteVideoGuest(appointmentId);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<{ name?: string; email?: string }>({});
  const [sent, setSent] = useState<string | null>(null);

  const submit = () => {
    const language = i18n.language.startsWith('es') ? 'es' : 'en';
    const parsed = InviteVideoGuestInputSchema.safeParse({ appointmentId, name, email, language });
    if (!parsed.success) {
      const fields: { name?: string; email?: string } = {};
      for (const issue of parsed.error.issues) {
        if (issue.path[0] === 'name') fields.name ??= errorText(issueMessage(issue));
        if (issue.path[0] === 'email') fields.email ??= t('video:guests.emailInvalid');
      }
      setErrors(fields);
      return;
    }
    setErrors({});
    invite.mutate(
      { name: parsed.data.name, email: parsed.data.email, language: parsed.data.language },
      {
        onSuccess: (guest) => {
          setSent(guest.email);
          setName('');
          setEmail('');
        },
      },
    );
  };

  return (
    <Paper withBorder p="md" radius="md" aria-labelledby="guests-heading">
      <Stack gap="xs">
        <Title order={2} size="h5" id="guests-heading">
          {t('video:guests.heading')}
        </Title>
        <Text size="sm">{t('video:guests.intro')}</Text>
        {(guests.data ?? []).length > 0 ? (
          <List size="sm" aria-label={t('video:guests.invited')}>
            {guests.data!.map((g) => (
              <List.Item key={g.id}>
                {g.name} ({g.email})
              </List.Item>
            ))}
          </List>
        ) : null}
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Stack gap="xs">
            <Group grow gap="xs" align="flex-start" wrap="wrap">
              <TextInput
                size="xs"
                label={t('video:guests.name')}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                error={errors.name}
                maxLength={80}
                miw={160}
              />
              <TextInput
                size="xs"
                type="email"
                label={t('video:guests.email')}
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                error={errors.email}
                maxLength={254}
                miw={200}
              />
            </Group>
            <Button
              size="xs"
              type="submit"
              variant="default"
              loading={invite.isPending}
              style={{ alignSelf: 'flex-start' }}
            >
              {t('video:guests.send')}
            </Button>
          </Stack>
        </form>
        {invite.isError ? (
          <Alert color="red" role="alert">
            {describeError(invite.error)}
          </Alert>
        ) : null}
        {sent ? (
          <Text size="sm" role="status">
            {t('video:guests.sent', { email: sent })}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
