import { defineModule } from '../modules/domain-module.ts';
import { NotesService } from './notes.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    notes: NotesService;
  }
}

/** Clinical notes, their templates, addenda and search. */
export default defineModule({
  name: 'notes',
  after: ['auth'],
  create: ({ db, keyring, secret, twoFactor, log }) => {
    const notes = new NotesService({
      db,
      keyring,
      secret,
      confirmIdentity: (caller, meta, proof) => twoFactor.confirmIdentity(caller, meta, proof),
    });
    return {
      services: { notes },
      startUp: async () => {
        await notes.seedTemplates();
        const reindexed = await notes.reindexSearch();
        if (reindexed > 0) log.info({ notes: reindexed }, 'notes re-indexed for search under the current key');
      },
    };
  },
});
