import { BUILT_IN_NOTE_TEMPLATES, type BuiltInNoteTemplateKey } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import type { NoteTemplate } from '../api/notes-api.ts';

const BUILT_IN_KEYS: readonly string[] = BUILT_IN_NOTE_TEMPLATES.map((x) => x.key);

/**
 * A template's name and sections in the reader's language: a built-in template that an administrator has not
 * changed is shown in the page's language (locales notes.json `builtInTemplates`); the practice's own templates,
 * and changed built-in ones, as they were written.
 */
export function useTemplateText() {
  const { t, i18n } = useTranslation('notes');
  return (template: NoteTemplate): { name: string; body: string } => {
    const key = template.key;
    if (!key || !BUILT_IN_KEYS.includes(key)) return template;
    const builtIn = key as BuiltInNoteTemplateKey;
    const english = i18n.getFixedT('en', 'notes');
    const unchanged =
      english(`builtInTemplates.${builtIn}.body`) === template.body &&
      english(`builtInTemplates.${builtIn}.name`) === template.name;
    if (!unchanged) return template;
    return { name: t(`builtInTemplates.${builtIn}.name`), body: t(`builtInTemplates.${builtIn}.body`) };
  };
}
