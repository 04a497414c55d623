import { defineModule } from '../modules/domain-module.ts';
import { EmergencyAccessService } from './emergency-access.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    emergencyAccess: EmergencyAccessService;
  }
}

/** Break-the-glass access to a record outside one's reach, and its review. */
export default defineModule({
  name: 'emergency-access',
  after: ['mail'],
  create: ({ db, keyring, config, mail, secret }) => ({
    services: { emergencyAccess: new EmergencyAccessService({ db, keyring, config, mail, secret }) },
  }),
});
