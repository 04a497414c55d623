import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { ShareLinkBox } from '../../../components/share-link-box.tsx';

/**
 * The specification's Share Video Call Link dialog: the link, Copy ('Copied!' for 2 s, with a fallback for
 * browsers without the clipboard API), and e-mail and text-message buttons with a message that carries no health
 * information (no name, no reason: only the link).
 */
export function ShareLinkDialog({ appointmentId, onClose }: { appointmentId: string | null; onClose: () => void }) {
  const { t } = useTranslation('appointments');
  return (
    <Modal
      opened={appointmentId !== null}
      onClose={onClose}
      title={t('share.title')}
      centered
      closeButtonProps={{ 'aria-label': t('details.close') }}
    >
      {appointmentId ? <ShareLinkBox appointmentId={appointmentId} /> : null}
    </Modal>
  );
}
