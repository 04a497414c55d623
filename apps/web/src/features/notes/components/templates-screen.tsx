import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { NOTE_CATEGORIES, NoteTemplateInputSchema, type NoteTemplateInput } from '@telehealth/shared';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { fieldErrorsFromZod, type FieldErrors } from '../../../lib/form-errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useNoteTemplates, useSaveTemplate, type NoteTemplate } from '../api/notes-api.ts';
import { useTemplateText } from './template-text.ts';

/** `/admin/note-templates`: the practice's note templates; administrators change them and add their own. */
export function NoteTemplatesScreen() {
  const { t } = useTranslation('notes');
  usePageTitle(t('templates.title'));
  const templates = useNoteTemplates();
  const text = useTemplateText();
  const [editing, setEditing] = useState<{ template: NoteTemplate | null } | null>(null);
  return (
    <Stack gap="md" maw={900}>
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('templates.title')}</Title>
        <Group gap="sm">
          <Button component={Link} to="/admin" variant="default">
            {t('templates.back')}
          </Button>
          <Button onClick={() => setEditing({ template: null })}>{t('templates.add')}</Button>
        </Group>
      </Group>
      <Text>{t('templates.intro')}</Text>
      {templates.isPending ? (
        <LoadingLine label={t('loading')} />
      ) : templates.isError ? (
        <Alert color="red" role="alert">
          {describeError(templates.error)}
        </Alert>
      ) : (
        <Stack gap="sm">
          {templates.data.map((template) => (
            <Paper key={template.id} withBorder p="md" radius="md">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={4}>
                  <Title order={2} size="h4">
                    {text(template).name}
                  </Title>
                  <Group gap={6}>
                    <Badge variant="outline" color="gray" c="gray.8" radius="sm">
                      {t(`category.${template.category as 'general'}`)}
                    </Badge>
                    {template.key ? (
                      <Badge variant="light" radius="sm" c="clinical.9">
                        {t('templates.builtIn')}
                      </Badge>
                    ) : null}
                    {template.isActive ? null : (
                      <Badge variant="light" color="gray" c="gray.8" radius="sm">
                        {t('templates.inactive')}
                      </Badge>
                    )}
                  </Group>
                </Stack>
                <Button
                  variant="default"
                  size="xs"
                  onClick={() => setEditing({ template })}
                  aria-label={t('templates.editNamed', { name: text(template).name })}
                >
                  {t('templates.edit')}
                </Button>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      {editing ? <TemplateEditor template={editing.template} onClose={() => setEditing(null)} /> : null}
    </Stack>
  );
}

function TemplateEditor({ template, onClose }: { template: NoteTemplate | null; onClose: () => void }) {
  const { t } = useTranslation('notes');
  const save = useSaveTemplate();
  const [values, setValues] = useState<NoteTemplateInput>({
    id: template?.id ?? null,
    name: template?.name ?? '',
    body: template?.body ?? '',
    category: (template?.category ?? 'general') as NoteTemplateInput['category'],
    isActive: template?.isActive ?? true,
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = () => {
    const parsed = NoteTemplateInputSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrorsFromZod(parsed.error));
      return;
    }
    save.mutate(values, { onSuccess: onClose });
  };
  const message = (field: string) => (errors[field] ? errorText(errors[field]) : undefined);
  return (
    <Modal
      opened
      onClose={onClose}
      title={template ? t('templates.editNamed', { name: template.name }) : t('templates.add')}
      size="lg"
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      closeButtonProps={{ 'aria-label': t('templates.cancel') }}
    >
      <form
        noValidate
        onSubmit={(event: SubmitEvent<HTMLFormElement>) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          {save.error ? (
            <Alert color="red" role="alert" variant="light">
              {describeError(save.error)}
            </Alert>
          ) : null}
          <TextInput
            label={t('templates.name')}
            value={values.name}
            onChange={(e) => setValues({ ...values, name: e.currentTarget.value })}
            error={message('name')}
            required
          />
          <Select
            label={t('templates.category')}
            data={NOTE_CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) }))}
            value={values.category ?? 'general'}
            onChange={(v) => setValues({ ...values, category: (v ?? 'general') as NoteTemplateInput['category'] })}
            allowDeselect={false}
          />
          <Textarea
            label={t('templates.body')}
            description={t('editor.contentHelp')}
            value={values.body}
            onChange={(e) => setValues({ ...values, body: e.currentTarget.value })}
            error={message('body')}
            required
            autosize
            minRows={8}
          />
          <Checkbox
            label={t('templates.active')}
            checked={values.isActive ?? true}
            onChange={(e) => setValues({ ...values, isActive: e.currentTarget.checked })}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              {t('templates.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('templates.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
