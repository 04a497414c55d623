import { Alert, Button, DataList, Group, Loader, Modal, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { DECLINE_REASON_MAX_LENGTH, MOBILE_BREAKPOINT_PX } from '@telehealth/shared';
import { useQuery } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { IconCheck } from '../../../components/icons.tsx';
import { describeError } from '../../../lib/errors.ts';
import { fieldErrorsFromServer } from '../../../lib/form-errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import {
  accessRequestQueryOptions,
  providerOptionsQueryOptions,
  useApproveAccessRequest,
  useDeclineAccessRequest,
  type AccessRequest,
  type AccessRequestSummary,
} from '../api/access-requests-api.ts';
import { groupFormFields } from '../utils/field-groups.ts';
import { formatDateTime } from '../utils/format.ts';
import { InvitationPanel } from './invitation-panel.tsx';
import { AccessRequestStatusBadge } from './status-badge.tsx';

export interface AccessRequestDetailsModalProps {
  request: AccessRequestSummary | null;
  onClose: () => void;
}

/** One request: every submitted field in groups, and Approve or Decline while it is new. */
export function AccessRequestDetailsModal({ request, onClose }: AccessRequestDetailsModalProps) {
  const { t } = useTranslation('access-review');
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`);
  const detail = useQuery({ ...accessRequestQueryOptions(request?.id ?? ''), enabled: request !== null });

  return (
    <Modal
      opened={request !== null}
      onClose={onClose}
      size="xl"
      fullScreen={isMobile ?? false}
      title={
        request ? (
          <Title order={2} size="h3">
            {t('details.title', { name: `${request.firstName} ${request.lastName}` })}
          </Title>
        ) : null
      }
      closeButtonProps={{ 'aria-label': t('details.close') }}
    >
      {request === null ? null : detail.isPending ? (
        <Group gap="xs" role="status">
          <Loader size="xs" aria-hidden />
          <Text size="sm">{t('details.loading')}</Text>
        </Group>
      ) : detail.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(detail.error)}
        </Alert>
      ) : (
        <DetailsBody request={detail.data} onClose={onClose} />
      )}
    </Modal>
  );
}

function DetailsBody({ request, onClose }: { request: AccessRequest; onClose: () => void }) {
  const { t, i18n } = useTranslation('access-review');
  const { t: requestText } = useTranslation('access-request');
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`) ?? false;
  const form = request.kind === 'provider' ? request.providerForm : request.patientForm;
  const groups = groupFormFields(
    request.kind,
    { email: request.email, ...form },
    {
      yes: t('details.yes'),
      no: t('details.no'),
    },
    // The form's keys are built from the stored field and option names, so they are not typed keys.
    (key, english) =>
      (requestText as (key: string, options: { defaultValue: string }) => string)(key, { defaultValue: english }),
  );

  return (
    <Stack gap="lg">
      <Group gap="xs">
        <Text fw={600}>{t(`kind.${request.kind}`)}</Text>
        <AccessRequestStatusBadge status={request.status} />
        <Text size="sm" c="dimmed">
          {t('submitted', { date: formatDateTime(request.createdAt, i18n.language) })}
        </Text>
      </Group>
      {request.status !== 'new' ? (
        <Alert variant="light" color="gray">
          <Stack gap={4}>
            <Text size="sm">
              {t('details.reviewed', {
                status: t(`status.${request.status}`),
                name: request.reviewedByName ?? '—',
                date: request.reviewedAt ? formatDateTime(request.reviewedAt, i18n.language) : '—',
              })}
            </Text>
            {request.declineReason ? (
              <Text size="sm">{t('details.declineReason', { reason: request.declineReason })}</Text>
            ) : null}
          </Stack>
        </Alert>
      ) : null}
      <InvitationPanel request={request} />
      {groups.map((group) => (
        <Stack gap="xs" key={group.key}>
          <Title order={3} size="h5">
            {t(`details.groups.${group.key}`)}
          </Title>
          <DataList size="sm" gap="xs" labelWidth={200} withDivider orientation={isMobile ? 'vertical' : 'horizontal'}>
            {group.rows.map((row) => (
              <DataList.Item key={row.field}>
                <DataList.ItemLabel c="dimmed">{row.label}</DataList.ItemLabel>
                <DataList.ItemValue style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {row.value ?? (
                    <Text component="span" c="dimmed" size="sm" fs="italic">
                      {t('details.notProvided')}
                    </Text>
                  )}
                </DataList.ItemValue>
              </DataList.Item>
            ))}
          </DataList>
        </Stack>
      ))}
      {request.status === 'new' ? <ReviewActions request={request} onClose={onClose} /> : null}
    </Stack>
  );
}

function ReviewActions({ request, onClose }: { request: AccessRequest; onClose: () => void }) {
  const { t } = useTranslation(['access-review', 'shared']);
  const approve = useApproveAccessRequest();
  const [ownerProviderId, setOwnerProviderId] = useState<string | null>(null);
  const [providerError, setProviderError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [declining, setDeclining] = useState(false);
  const needsProvider = request.kind === 'patient';
  const providers = useQuery({ ...providerOptionsQueryOptions, enabled: needsProvider });

  const onApprove = () => {
    if (approve.isPending) return;
    if (needsProvider && !ownerProviderId) {
      setProviderError(t('shared:accessRequestMessages.chooseProvider'));
      document.getElementById('access-request-provider')?.focus();
      return;
    }
    setFailure(null);
    approve.mutate(
      { id: request.id, ownerProviderId: needsProvider ? ownerProviderId : null },
      {
        onSuccess: () => {
          notifications.show({
            color: 'teal',
            icon: <IconCheck size={18} />,
            title: t('approvedTitle'),
            message: t('shared:accessRequestMessages.approved'),
            closeButtonProps: { 'aria-label': t('closeNotification') },
          });
          onClose();
        },
        onError: (error) => {
          const fieldErrors = fieldErrorsFromServer(error);
          if (fieldErrors?.['ownerProviderId']) setProviderError(errorText(fieldErrors['ownerProviderId']));
          setFailure(describeError(error));
        },
      },
    );
  };

  return (
    <Stack gap="md">
      {request.emailHasAccount ? (
        <Alert color="yellow" variant="light">
          {t('details.emailHasAccount')}
        </Alert>
      ) : null}
      {needsProvider ? (
        <Select
          id="access-request-provider"
          label={t('details.primaryProvider')}
          description={t('details.primaryProviderDescription')}
          placeholder={t('details.primaryProviderPlaceholder')}
          required
          searchable
          data={(providers.data ?? []).map((provider) => ({
            value: provider.owner,
            label: `${provider.firstName} ${provider.lastName}`,
          }))}
          value={ownerProviderId}
          onChange={(value) => {
            setOwnerProviderId(value);
            setProviderError(null);
          }}
          error={providerError ?? (providers.isError ? describeError(providers.error) : undefined)}
          comboboxProps={{ withinPortal: true }}
        />
      ) : null}
      {failure ? (
        <Alert color="red" variant="light" role="alert" title={t('failedTitle')}>
          {failure}
        </Alert>
      ) : null}
      <Group justify="flex-end" gap="sm">
        <Button
          variant="default"
          color="red"
          onClick={() => {
            setDeclining(true);
          }}
          disabled={approve.isPending}
        >
          {t('details.decline')}
        </Button>
        <Button onClick={onApprove} loading={approve.isPending} disabled={request.emailHasAccount}>
          {t('details.approve')}
        </Button>
      </Group>
      <DeclineModal
        request={request}
        opened={declining}
        onClose={() => {
          setDeclining(false);
        }}
        onDeclined={onClose}
      />
    </Stack>
  );
}

function DeclineModal({
  request,
  opened,
  onClose,
  onDeclined,
}: {
  request: AccessRequest;
  opened: boolean;
  onClose: () => void;
  onDeclined: () => void;
}) {
  const { t } = useTranslation(['access-review', 'shared']);
  const decline = useDeclineAccessRequest();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (decline.isPending) return;
    if (reason.trim() === '') {
      setError(t('declineModal.reasonRequired'));
      return;
    }
    setFailure(null);
    decline.mutate(
      { id: request.id, reason: reason.trim() },
      {
        onSuccess: () => {
          notifications.show({
            color: 'gray',
            title: t('declinedTitle'),
            message: t('shared:accessRequestMessages.declined'),
            closeButtonProps: { 'aria-label': t('closeNotification') },
          });
          onClose();
          onDeclined();
        },
        onError: (cause) => {
          const fieldErrors = fieldErrorsFromServer(cause);
          if (fieldErrors?.['reason']) setError(errorText(fieldErrors['reason'], { label: t('declineModal.reason') }));
          else setFailure(describeError(cause));
        },
      },
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={() => {
        if (!decline.isPending) onClose();
      }}
      title={
        <Title order={2} size="h4">
          {t('declineModal.title')}
        </Title>
      }
      closeButtonProps={{ 'aria-label': t('declineModal.cancel') }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Textarea
            label={t('declineModal.reason')}
            description={t('declineModal.reasonDescription')}
            required
            autosize
            minRows={3}
            maxLength={DECLINE_REASON_MAX_LENGTH}
            value={reason}
            onChange={(event) => {
              setReason(event.currentTarget.value);
              setError(null);
            }}
            error={error}
            data-autofocus
          />
          {failure ? (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={decline.isPending}>
              {t('declineModal.cancel')}
            </Button>
            <Button type="submit" color="red" loading={decline.isPending}>
              {t('declineModal.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
