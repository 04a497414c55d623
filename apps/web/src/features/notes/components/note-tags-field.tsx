import { Button, CloseButton, Group, Pill, TextInput } from '@mantine/core';
import { normalizeTags } from '@telehealth/shared';
import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** A note's tags: typed one at a time (Enter or Add), each shown with a button that removes it. */
export function NoteTagsField({
  tags,
  onChange,
  error,
}: {
  tags: string[];
  onChange: (tags: string[]) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation('notes');
  const [draft, setDraft] = useState('');
  const add = () => {
    onChange(normalizeTags([...tags, draft]));
    setDraft('');
  };
  return (
    <div>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          label={t('editor.tags')}
          placeholder={t('editor.tagPlaceholder')}
          value={draft}
          onChange={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
          error={error}
          style={{ flex: 1 }}
          maxLength={40}
        />
        <Button variant="default" onClick={add} disabled={!draft.trim()}>
          {t('editor.addTag')}
        </Button>
      </Group>
      {tags.length > 0 ? (
        <Group gap={6} mt="xs">
          {tags.map((tag) => (
            <Pill key={tag} size="md">
              <Group gap={2} wrap="nowrap">
                {tag}
                <CloseButton
                  size="xs"
                  aria-label={t('editor.removeTag', { tag })}
                  onClick={() => onChange(tags.filter((x) => x !== tag))}
                />
              </Group>
            </Pill>
          ))}
        </Group>
      ) : null}
    </div>
  );
}
