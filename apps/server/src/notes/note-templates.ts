import { and, asc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import { BUILT_IN_NOTE_TEMPLATES, NoteTemplateInputSchema, seesRecordPart } from '@telehealth/shared';
import { scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { Database, Executor } from '../db/client.ts';
import { isUuid } from '../db/ids.ts';
import { notFound, parseInput } from '../errors.ts';
import { noteTemplates } from './notes.table.ts';

/**
 * The note editor's templates (decision 027): the active ones for those who write notes, all of them for those who
 * manage templates (`note-template:inactive`), an administrator's changes (audited), and the built-in templates
 * brought to this version's text at start. Built by NotesService, which passes its calls through.
 */
export class NoteTemplates {
  readonly #db: Database;

  constructor(options: { db: Database }) {
    this.#db = options.db;
  }

  /** The editor's templates (active ones; administrators also see the inactive). */
  async list(caller: Caller) {
    const canManage = seesRecordPart(caller.user.role, 'note-template:inactive');
    if (!canManage) await scopeOf(this.#db, caller).reach('note:write');
    const rows = await this.#db
      .select()
      .from(noteTemplates)
      .where(canManage ? undefined : eq(noteTemplates.isActive, true))
      .orderBy(sql`${noteTemplates.key} IS NULL`, asc(noteTemplates.name));
    return rows;
  }

  async save(caller: Caller, input: unknown) {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('note-template:manage');
    const { id, name, body, category, isActive } = parseInput(NoteTemplateInputSchema, input);
    return this.#db.transaction(async (tx) => {
      const values = {
        name,
        body,
        category: category ?? 'general',
        isActive: isActive ?? true,
        updatedBy: caller.user.id,
        updatedAt: new Date(),
      };
      if (id && !isUuid(id)) throw notFound('noteMessages.templateNotFound');
      const [row] = id
        ? await tx.update(noteTemplates).set(values).where(eq(noteTemplates.id, id)).returning()
        : await tx.insert(noteTemplates).values(values).returning();
      if (!row) throw notFound('noteMessages.templateNotFound');
      await scope.audit(tx, 'NOTE_TEMPLATE_CHANGE', { templateId: row.id, created: !id });
      return row;
    });
  }

  /**
   * Adds the built-in templates that are missing and brings those no administrator has changed (`updated_by` is
   * empty) to this version's text (at start); an administrator's edits of them are kept.
   */
  async seed(): Promise<void> {
    await this.#db.transaction(async (tx) => {
      await tx
        .insert(noteTemplates)
        .values(BUILT_IN_NOTE_TEMPLATES.map(({ key, name, body, category }) => ({ key, name, body, category })))
        .onConflictDoNothing({ target: noteTemplates.key });
      for (const { key, name, body, category } of BUILT_IN_NOTE_TEMPLATES) {
        await tx
          .update(noteTemplates)
          .set({ name, body, category, updatedAt: new Date() })
          .where(
            and(
              eq(noteTemplates.key, key),
              isNull(noteTemplates.updatedBy),
              or(ne(noteTemplates.name, name), ne(noteTemplates.body, body), ne(noteTemplates.category, category)),
            ),
          );
      }
    });
  }
}

/** Whether a template with this id exists (a note names one it was written from). */
export async function noteTemplateExists(executor: Executor, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const [template] = await executor
    .select({ id: noteTemplates.id })
    .from(noteTemplates)
    .where(eq(noteTemplates.id, id));
  return template !== undefined;
}
