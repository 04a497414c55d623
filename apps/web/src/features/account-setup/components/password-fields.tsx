import { List, PasswordInput, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { IconCheck } from '../../../components/icons.tsx';
import type { CodedMessage } from '@telehealth/shared';

import { errorText } from '../../../lib/error-text.ts';
import { passwordRules } from '../utils/account-setup.ts';

export interface PasswordFieldsProps {
  password: string;
  confirm: string;
  onPasswordChange: (value: string) => void;
  onConfirmChange: (value: string) => void;
  /** A message of the shared password policy, by id (said here in the page's language). */
  passwordError?: CodedMessage | null | undefined;
  confirmError?: string | null | undefined;
}

/** New password and its confirmation, with the policy's rules ticked off as the person types. */
export function PasswordFields(props: PasswordFieldsProps) {
  const { t } = useTranslation('account');
  const rulesId = useId();
  const rules = passwordRules(props.password);
  return (
    <Stack gap="sm">
      <PasswordInput
        id="new-password"
        label={t('password')}
        autoComplete="new-password"
        required
        value={props.password}
        onChange={(event) => {
          props.onPasswordChange(event.currentTarget.value);
        }}
        error={props.passwordError ? errorText(props.passwordError, { label: t('password') }) : undefined}
        aria-describedby={rulesId}
      />
      <Stack gap={4} id={rulesId}>
        <Text size="sm" fw={600}>
          {t('policyTitle')}
        </Text>
        <List size="sm" spacing={2} listStyleType="none" aria-live="polite">
          {rules.map((rule) => (
            <List.Item
              key={rule.message.id}
              c={rule.met ? 'teal.9' : 'gray.8'}
              icon={
                rule.met ? (
                  <IconCheck size={14} aria-hidden />
                ) : (
                  <span aria-hidden style={{ display: 'inline-block', width: 14, textAlign: 'center' }}>
                    •
                  </span>
                )
              }
            >
              <VisuallyHidden>{rule.met ? t('policyMet') : t('policyMissing')}</VisuallyHidden>
              {errorText(rule.message)}
            </List.Item>
          ))}
        </List>
      </Stack>
      <PasswordInput
        id="confirm-password"
        label={t('confirmPassword')}
        autoComplete="new-password"
        required
        value={props.confirm}
        onChange={(event) => {
          props.onConfirmChange(event.currentTarget.value);
        }}
        error={props.confirmError ?? undefined}
      />
    </Stack>
  );
}
