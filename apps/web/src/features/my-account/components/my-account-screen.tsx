import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { ChangePasswordInputSchema, UpdateMyAccountInputSchema } from '@telehealth/shared';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { fieldErrorsFromServer, fieldErrorsFromZod, type FieldErrors } from '../../../lib/form-errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import {
  useChangePassword,
  useMyAccount,
  useSignOutEverywhereElse,
  useUpdateMyAccount,
  type MyAccount,
} from '../api/my-account-api.ts';

/**
 * `/profile`, My account, for every role: name and contact details, language, password, two-factor sign-in and
 * "sign out everywhere else". What a patient cannot change themselves (name, date of birth, e-mail) says how.
 */
export function MyAccountScreen({ children }: { children?: React.ReactNode } = {}) {
  const { t } = useTranslation('my-account');
  usePageTitle(t('title'));
  const account = useMyAccount();
  return (
    <Stack gap="md" maw={720} mx="auto" w="100%">
      <Title order={1}>{t('title')}</Title>
      {account.isPending ? (
        <LoadingLine label={t('loading')} />
      ) : account.isError ? (
        <Alert color="red" variant="light" role="alert" title={t('loadFailed')}>
          <Button variant="default" mt="xs" onClick={() => void account.refetch()}>
            {t('tryAgain')}
          </Button>
        </Alert>
      ) : (
        <>
          <DetailsSection account={account.data} />
          <LanguageSection account={account.data} />
          <PasswordSection />
          <SecuritySection account={account.data} />
          {/* Sections other features add for this person (a provider's billing identity), composed by the route. */}
          {children}
        </>
      )}
    </Stack>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Title order={2} size="h3" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

function DetailsSection({ account }: { account: MyAccount }) {
  const { t } = useTranslation('my-account');
  const update = useUpdateMyAccount();
  const isPatient = account.role === 'patient';
  const [firstName, setFirstName] = useState(account.firstName);
  const [lastName, setLastName] = useState(account.lastName);
  const [phone, setPhone] = useState(account.phone ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState(false);
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(false);
    const input = isPatient ? { phone } : { firstName, lastName };
    const parsed = UpdateMyAccountInputSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(fieldErrorsFromZod(parsed.error));
      return;
    }
    setErrors({});
    update.mutate(input, {
      onSuccess: () => setSaved(true),
      onError: (error) => setErrors(fieldErrorsFromServer(error) ?? {}),
    });
  };
  const fieldError = (name: string) => (errors[name] ? errorText(errors[name]) : undefined);
  return (
    <Section id="account-details" title={t('details.title')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('details.email')} value={account.email} readOnly description={t('details.emailHint')} />
          {isPatient ? (
            <>
              <TextInput
                label={t('details.name')}
                value={`${account.firstName} ${account.lastName}`}
                readOnly
                description={t('details.nameThroughPractice')}
              />
              {account.hasPatientRecord ? (
                <TextInput
                  label={t('details.phone')}
                  type="tel"
                  autoComplete="tel"
                  value={phone}
                  onChange={(e) => setPhone(e.currentTarget.value)}
                  error={fieldError('phone')}
                />
              ) : null}
            </>
          ) : (
            <Group grow wrap="wrap" align="flex-start">
              <TextInput
                label={t('details.firstName')}
                autoComplete="given-name"
                required
                value={firstName}
                onChange={(e) => setFirstName(e.currentTarget.value)}
                error={fieldError('firstName')}
                miw={200}
              />
              <TextInput
                label={t('details.lastName')}
                autoComplete="family-name"
                required
                value={lastName}
                onChange={(e) => setLastName(e.currentTarget.value)}
                error={fieldError('lastName')}
                miw={200}
              />
            </Group>
          )}
          {update.error && !fieldErrorsFromServer(update.error) ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(update.error)}
            </Alert>
          ) : null}
          {saved ? (
            <Text size="sm" c="teal.9" role="status">
              {t('details.saved')}
            </Text>
          ) : null}
          {!isPatient || account.hasPatientRecord ? (
            <Group>
              <Button type="submit" loading={update.isPending}>
                {t('details.save')}
              </Button>
            </Group>
          ) : null}
        </Stack>
      </form>
    </Section>
  );
}

function LanguageSection({ account }: { account: MyAccount }) {
  const { t, i18n } = useTranslation('my-account');
  const update = useUpdateMyAccount();
  return (
    <Section id="account-language" title={t('language.title')}>
      <Text size="sm">{t('language.intro')}</Text>
      <SegmentedControl
        aria-label={t('language.title')}
        // Until the person chooses here, the app speaks the browser's choice: show that one.
        value={account.languageChosen ? account.language : i18n.resolvedLanguage === 'es' ? 'es' : 'en'}
        disabled={update.isPending}
        data={[
          { value: 'en', label: 'English' },
          { value: 'es', label: 'Español' },
        ]}
        onChange={(value) => {
          const language = value;
          update.mutate({ language }, { onSuccess: () => void i18n.changeLanguage(language) });
        }}
      />
      {update.error ? (
        <Text size="sm" c="red.9" role="alert">
          {describeError(update.error)}
        </Text>
      ) : null}
    </Section>
  );
}

function PasswordSection() {
  const { t } = useTranslation('my-account');
  const change = useChangePassword();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [done, setDone] = useState<number | null>(null);
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setDone(null);
    const parsed = ChangePasswordInputSchema.safeParse({ currentPassword, newPassword });
    if (!parsed.success) {
      setErrors(fieldErrorsFromZod(parsed.error));
      return;
    }
    setErrors({});
    change.mutate(parsed.data, {
      onSuccess: (result) => {
        setCurrent('');
        setNew('');
        setDone(result.sessionsEnded);
      },
    });
  };
  const fieldError = (name: string) => (errors[name] ? errorText(errors[name]) : undefined);
  return (
    <Section id="account-password" title={t('password.title')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <PasswordInput
            label={t('password.current')}
            autoComplete="current-password"
            required
            value={currentPassword}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            error={fieldError('currentPassword')}
          />
          <PasswordInput
            label={t('password.new')}
            description={t('password.policy')}
            autoComplete="new-password"
            required
            value={newPassword}
            onChange={(e) => setNew(e.currentTarget.value)}
            error={fieldError('newPassword')}
          />
          {change.error ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(change.error)}
            </Alert>
          ) : null}
          {done !== null ? (
            <Text size="sm" c="teal.9" role="status">
              {t('password.changed', { count: done })}
            </Text>
          ) : null}
          <Group>
            <Button type="submit" loading={change.isPending}>
              {t('password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function SecuritySection({ account }: { account: MyAccount }) {
  const { t } = useTranslation('my-account');
  const signOut = useSignOutEverywhereElse();
  return (
    <Section id="account-security" title={t('security.title')}>
      <Group gap="sm">
        <Text fw={600}>{t('security.twoFactor')}</Text>
        <Badge color={account.twoFactorEnabled ? 'clinical.8' : 'gray.7'} variant="filled">
          {account.twoFactorEnabled ? t('security.on') : t('security.off')}
        </Badge>
      </Group>
      <Anchor component={Link} to="/account/security">
        {t('security.manageTwoFactor')}
      </Anchor>
      <Text size="sm">{t('security.otherSessions', { count: account.otherSessions })}</Text>
      <Group>
        <Button variant="default" color="red" loading={signOut.isPending} onClick={() => signOut.mutate()}>
          {t('security.signOutElsewhere')}
        </Button>
      </Group>
      {signOut.isSuccess ? (
        <Text size="sm" c="teal.9" role="status">
          {t('security.signedOutElsewhere', { count: signOut.data.sessionsEnded })}
        </Text>
      ) : null}
      {signOut.error ? (
        <Text size="sm" c="red.9" role="alert">
          {describeError(signOut.error)}
        </Text>
      ) : null}
    </Section>
  );
}
