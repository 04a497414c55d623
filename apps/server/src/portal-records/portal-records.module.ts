import { defineModule } from '../modules/domain-module.ts';
import { PortalRecordsService } from './portal-records.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    portalRecords: PortalRecordsService;
  }
}

/** What a patient sees of their own record in the portal. */
export default defineModule({
  name: 'portal-records',
  after: ['mail', 'patients'],
  create: ({ db, keyring, secret, mail, patients }) => ({
    services: { portalRecords: new PortalRecordsService({ db, keyring, secret, mail, patients }) },
  }),
});
