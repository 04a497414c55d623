import { defineModule } from '../modules/domain-module.ts';
import { reviewStoredText, StoredTextService } from './stored-text-review.ts';

declare module '../modules/services.ts' {
  interface Services {
    storedText: StoredTextService;
  }
}

export default defineModule({
  name: 'stored-text',
  // Stored text the current text rule refuses, made inert once per version of the rule (decision 022).
  afterMigrations: (db, { keyring, log }) => reviewStoredText(db, keyring, log),
  create: ({ db }) => ({ services: { storedText: new StoredTextService({ db }) } }),
});
