import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  API_TOKEN_DEFAULT_EXPIRY_DAYS,
  API_TOKEN_EXPIRY_DAYS,
  AUDIT_SEARCH_PATH,
  CreateApiTokenInputSchema,
} from '@telehealth/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { ScrollTable } from '../../../components/scroll-table.tsx';
import { describeError } from '../../../lib/errors.ts';
import { apiTokensQueryOptions, useCreateApiToken, useRevokeApiToken, type ApiToken } from '../api/audit-trail-api.ts';
import { formatDateTime } from './audit-format.tsx';

/**
 * The API tokens tab of /admin/security: tokens a log collector uses to read the audit trail
 * (GET /api/audit/search with `Authorization: Bearer …`). A new token is shown once; revoking one stops it at once.
 */
export function ApiTokensPanel() {
  const { t } = useTranslation('audit-trail');
  const tokens = useQuery(apiTokensQueryOptions());
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  return (
    <Stack gap="lg">
      <Text c="dimmed">{t('tokens.intro', { path: AUDIT_SEARCH_PATH })}</Text>
      <CreateTokenForm />
      <Title order={2} size="h3">
        {t('tokens.listTitle')}
      </Title>
      {tokens.isPending ? (
        <LoadingLine label={t('tokens.loading')} />
      ) : tokens.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(tokens.error)}
        </Alert>
      ) : tokens.data.length === 0 ? (
        <Paper withBorder p="lg">
          <Text>{t('tokens.empty')}</Text>
        </Paper>
      ) : (
        <TokenTable tokens={tokens.data} onRevoke={setRevoking} />
      )}
      <RevokeDialog
        token={revoking}
        onClose={() => {
          setRevoking(null);
        }}
      />
    </Stack>
  );
}

function tokenStatus(token: ApiToken): 'revoked' | 'expired' | 'active' {
  if (token.revokedAt) return 'revoked';
  return new Date(token.expiresAt).getTime() <= Date.now() ? 'expired' : 'active';
}

function TokenTable({ tokens, onRevoke }: { tokens: ApiToken[]; onRevoke: (token: ApiToken) => void }) {
  const { t, i18n } = useTranslation('audit-trail');
  return (
    <ScrollTable label={t('tokens.listTitle')} minWidth={640}>
      <Table striped verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('tokens.name')}</Table.Th>
            <Table.Th scope="col">{t('tokens.scopes')}</Table.Th>
            <Table.Th scope="col">{t('tokens.status')}</Table.Th>
            <Table.Th scope="col">{t('tokens.expires')}</Table.Th>
            <Table.Th scope="col">{t('tokens.lastUsed')}</Table.Th>
            <Table.Th scope="col">{t('tokens.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tokens.map((token) => {
            const status = tokenStatus(token);
            return (
              <Table.Tr key={token.id} data-testid="api-token-row">
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Text size="sm">{token.name}</Text>
                  <Text size="xs" c="dimmed">
                    {t('tokens.hint', { hint: token.tokenHint, by: token.createdByName ?? '—' })}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Code>{token.scopes.join(', ')}</Code>
                </Table.Td>
                <Table.Td>
                  <Badge
                    variant="light"
                    radius="sm"
                    color={status === 'active' ? 'green' : 'gray'}
                    style={{ '--badge-color': `var(--mantine-color-${status === 'active' ? 'green' : 'gray'}-9)` }}
                  >
                    {t(`tokens.state.${status}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>{formatDateTime(token.expiresAt, i18n.language)}</Table.Td>
                <Table.Td>
                  {token.lastUsedAt ? formatDateTime(token.lastUsedAt, i18n.language) : t('tokens.never')}
                </Table.Td>
                <Table.Td>
                  {status === 'revoked' ? null : (
                    <Button
                      size="xs"
                      color="red"
                      variant="light"
                      onClick={() => {
                        onRevoke(token);
                      }}
                      aria-label={t('tokens.revokeLabel', { name: token.name })}
                    >
                      {t('tokens.revoke')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

function CreateTokenForm() {
  const { t } = useTranslation('audit-trail');
  const create = useCreateApiToken();
  const [name, setName] = useState('');
  const [days, setDays] = useState<string>(String(API_TOKEN_DEFAULT_EXPIRY_DAYS));
  const [problem, setProblem] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = { name, scopes: ['audit:read' as const], expiresInDays: Number(days) };
    const parsed = CreateApiTokenInputSchema.safeParse(input);
    if (!parsed.success) {
      setProblem(parsed.error.issues.map((i) => i.message).join(' · '));
      return;
    }
    setProblem(null);
    create.mutate(input, {
      onSuccess: (created) => {
        setSecret(created.secret);
        setName('');
      },
    });
  };

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-labelledby="api-token-create-heading">
      <Stack gap="sm">
        <Title order={2} size="h3" id="api-token-create-heading">
          {t('tokens.createTitle')}
        </Title>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label={t('tokens.name')}
            description={t('tokens.nameHint')}
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
            }}
            required
            style={{ flex: '1 1 220px' }}
          />
          <Select
            label={t('tokens.lifetime')}
            data={API_TOKEN_EXPIRY_DAYS.map((d) => ({ value: String(d), label: t('tokens.days', { count: d }) }))}
            value={days}
            onChange={(v) => {
              setDays(v ?? String(API_TOKEN_DEFAULT_EXPIRY_DAYS));
            }}
            allowDeselect={false}
            style={{ flex: '0 1 160px' }}
          />
          <Button type="submit" loading={create.isPending}>
            {t('tokens.create')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t('tokens.scopeNote')}
        </Text>
        {problem ? (
          <Alert color="red" variant="light" role="alert">
            {problem}
          </Alert>
        ) : null}
        {create.isError ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(create.error)}
          </Alert>
        ) : null}
      </Stack>
      <Modal
        opened={secret !== null}
        onClose={() => {
          setSecret(null);
        }}
        title={t('tokens.createdTitle')}
        closeButtonProps={{ 'aria-label': t('detail.close') }}
      >
        <Stack gap="sm">
          <Alert color="orange" variant="light">
            {t('tokens.shownOnce')}
          </Alert>
          <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} data-testid="api-token-secret">
            {secret}
          </Code>
          <Group gap="sm">
            <CopyButton value={secret ?? ''}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? t('tokens.copied') : t('tokens.copy')}
                </Button>
              )}
            </CopyButton>
            <Button
              onClick={() => {
                setSecret(null);
              }}
            >
              {t('tokens.done')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

function RevokeDialog({ token, onClose }: { token: ApiToken | null; onClose: () => void }) {
  const { t } = useTranslation('audit-trail');
  const revoke = useRevokeApiToken();
  return (
    <Modal
      opened={token !== null}
      onClose={onClose}
      title={t('tokens.revokeTitle', { name: token?.name ?? '' })}
      closeButtonProps={{ 'aria-label': t('detail.close') }}
    >
      <Stack gap="sm">
        <Text>{t('tokens.revokeConsequence')}</Text>
        {revoke.isError ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(revoke.error)}
          </Alert>
        ) : null}
        <Group gap="sm" justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('tokens.cancel')}
          </Button>
          <Button
            color="red"
            loading={revoke.isPending}
            onClick={() => {
              if (!token) return;
              revoke.mutate(token.id, { onSuccess: onClose });
            }}
          >
            {t('tokens.revokeConfirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
