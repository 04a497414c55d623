import { Alert, Button, Stack } from '@mantine/core';
import { videoStartPath } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { describeError } from '../../../lib/errors.ts';
import { useSeeNow } from '../api/appointments-api.ts';

/**
 * See now (decision 046): one click books the patient an unscheduled video visit starting now, with the
 * practice's visit length, and opens its room in start mode. The patient is told as of any new video visit and
 * can join from their portal at once. A clash with another visit is said in words (the server names its times).
 */
export function SeeNowButton({ patientId }: { patientId: string }) {
  const { t } = useTranslation('appointments');
  const navigate = useNavigate();
  const seeNow = useSeeNow();
  return (
    <Stack gap="xs" align="flex-start">
      <Button
        size="xs"
        loading={seeNow.isPending}
        onClick={() =>
          seeNow.mutate(
            { patientId, reason: t('seeNow.reason') },
            { onSuccess: (appointment) => void navigate(videoStartPath(appointment.id)) },
          )
        }
      >
        {t('seeNow.action')}
      </Button>
      {seeNow.isError ? (
        <Alert color="red" variant="light" role="alert" p="xs">
          {describeError(seeNow.error)}
        </Alert>
      ) : null}
    </Stack>
  );
}
