import { builder } from './builder.ts';
import './auth.schema.ts';
import './patients.schema.ts';
import './access-requests.schema.ts';
import './account-setup.schema.ts';
import './mail.schema.ts';
import './two-factor.schema.ts';
import './stored-text.schema.ts';
import './appointments.schema.ts';
import './video.schema.ts';
import './notes.schema.ts';
import './measures.schema.ts';
import './patient-booking.schema.ts';
import './portal-records.schema.ts';
import './messages.schema.ts';
import './reports.schema.ts';

export { PUBLIC_ROOT_FIELDS } from './auth.schema.ts';
export const schema = builder.toSchema();
