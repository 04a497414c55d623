import { defineModule } from '../modules/domain-module.ts';
import { PatientsService } from './patients.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    patients: PatientsService;
  }
}

export default defineModule({
  name: 'patients',
  create: ({ db, secret, keyring }) => ({ services: { patients: new PatientsService({ db, secret, keyring }) } }),
});
