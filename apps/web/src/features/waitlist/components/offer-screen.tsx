import '../../../components/mantine-styles-public.ts';
import { Alert, Button, Container, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

import { PhoneLinkedText } from '../../../components/phone-linked-text.tsx';
import { PublicPage } from '../../../components/public-site/public-page.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { isNotFoundError } from '../../../lib/form-errors.ts';
import { isGraphQLRequestError } from '../../../lib/graphql.ts';
import { useClaimWaitlistOffer, waitlistOfferQueryOptions, type WaitlistOffer } from '../api/waitlist-api.ts';
import { formatDay } from '../../../lib/practice-dates.ts';
import { LoadingLine } from '../../../components/loading-line.tsx';
import { linkTokenFromHash } from '../../../lib/link-token.ts';
import { useAppConfigValue } from '../../../lib/page-bootstrap.ts';

/** `/waitlist/offer#TOKEN`: a waitlisted patient sees the time that opened up and books it, first come first served. */
export function WaitlistOfferScreen() {
  const { t } = useTranslation('waitlist');
  usePageTitle(t('offer.title'));
  const { hash } = useLocation();
  const token = linkTokenFromHash(hash);
  const offer = useQuery({ ...waitlistOfferQueryOptions(token ?? ''), enabled: token !== null });
  const claim = useClaimWaitlistOffer();
  // "Call the practice" only with a number to call (decision 048).
  const phone = useAppConfigValue()?.clinicPhone ?? null;

  let body;
  if (token === null || (offer.isError && isNotFoundError(offer.error))) {
    body = <Notice color="red">{phone ? t('offer.invalidPhone', { phone }) : t('offer.invalid')}</Notice>;
  } else if (offer.isPending) {
    body = <LoadingLine label={t('offer.loading')} />;
  } else if (offer.isError) {
    body = <Notice color="red">{describeError(offer.error)}</Notice>;
  } else if (claim.isSuccess) {
    body = (
      <>
        <OfferDetails offer={offer.data} />
        <Notice color="green">{t('offer.claimed')}</Notice>
      </>
    );
  } else {
    const lost = claim.isError && isGraphQLRequestError(claim.error) && claim.error.code === 'BAD_USER_INPUT';
    const status = lost ? 'gone' : offer.data.status;
    body = (
      <>
        <OfferDetails offer={offer.data} />
        {status === 'open' ? (
          <>
            <Text>{t('offer.firstComes')}</Text>
            {claim.isError ? <Notice color="red">{describeError(claim.error)}</Notice> : null}
            <Button
              loading={claim.isPending}
              onClick={() => {
                claim.mutate(token);
              }}
              style={{ alignSelf: 'flex-start' }}
            >
              {t('offer.book')}
            </Button>
          </>
        ) : (
          <Notice color="gray">
            {status === 'claimed'
              ? t('offer.alreadyBooked')
              : phone
                ? t('offer.gonePhone', { phone })
                : t('offer.gone')}
          </Notice>
        )}
      </>
    );
  }

  return (
    <PublicPage>
      <Container size={560} py="xl" px="md" w="100%">
        <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
          <Stack gap="md">
            <Title order={1} size="h2">
              {t('offer.title')}
            </Title>
            {body}
          </Stack>
        </Paper>
      </Container>
    </PublicPage>
  );
}

function OfferDetails({ offer }: { offer: WaitlistOffer }) {
  const { t, i18n } = useTranslation('waitlist');
  return (
    <List spacing={4} listStyleType="none" withPadding={false}>
      <List.Item>{t('offer.with', { name: offer.providerName })}</List.Item>
      <List.Item>
        {t('offer.when', { day: formatDay(offer.date, i18n.language), time: offer.time, zone: offer.timeZone })}
      </List.Item>
      <List.Item>{t('offer.length', { count: offer.duration })}</List.Item>
      <List.Item>{offer.appointmentType === 'video' ? t('offer.video') : t('offer.inPerson')}</List.Item>
    </List>
  );
}

/** A notice; the clinic's number in it is a tel: link. */
function Notice({ color, children }: { color: string; children: string }) {
  return (
    <Alert color={color} variant="light" role={color === 'red' ? 'alert' : 'status'}>
      <PhoneLinkedText text={children} />
    </Alert>
  );
}
