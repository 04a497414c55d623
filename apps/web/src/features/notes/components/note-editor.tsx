import {
  Alert,
  Button,
  Checkbox,
  Grid,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  NOTE_CATEGORIES,
  NOTE_PRIORITIES,
  NOTE_TEMPLATES_WITH_RECORD,
  NoteInputSchema,
  zonedDateTime,
  type NoteInput,
} from '@telehealth/shared';
import { useState, type ReactNode, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { PatientPicker } from '../../../components/person-pickers.tsx';
import { useAppConfig } from '../../../lib/auth.ts';
import { describeError } from '../../../lib/errors.ts';
import {
  fieldErrorsFromServer,
  fieldErrorsFromZod,
  hasPublicMessage,
  type FieldErrors,
} from '../../../lib/form-errors.ts';
import { coded, errorText } from '../../../lib/error-text.ts';
import {
  useCreateNote,
  useNoteTemplates,
  usePatientAppointments,
  useUpdateNote,
  type Note,
  type NoteTemplate,
} from '../api/notes-api.ts';
import { NoteTagsField } from './note-tags-field.tsx';
import { useTemplateText } from './template-text.ts';
import { formatVisit, orderVisitsForNote, templateKeyForVisit, templateTitle } from './visit-choice.ts';

interface FormValues {
  title: string;
  content: string;
  category: string;
  priority: string;
  patientId: string;
  appointmentId: string;
  tags: string[];
  isPrivate: boolean;
  templateId: string;
  /** Whoever writes has typed a title (else the title follows the template and the visit). */
  titleTyped: boolean;
  /** Whoever writes has chosen the appointment, or cleared it (else today's visit is chosen by itself). */
  appointmentChosen: boolean;
}

function initialValues(note: Note | null, patientId: string | null, appointmentId: string | null): FormValues {
  return {
    title: note?.title ?? '',
    content: note?.content ?? '',
    category: note?.category ?? 'general',
    priority: note?.priority ?? 'medium',
    patientId: note?.patientId ?? patientId ?? '',
    appointmentId: note?.appointmentId ?? appointmentId ?? '',
    tags: note?.tags ?? [],
    isPrivate: note?.isPrivate ?? false,
    templateId: note?.templateId ?? '',
    // A saved note keeps its own title and appointment; a note about a given visit keeps that visit.
    titleTyped: !!note,
    appointmentChosen: !!note || !!appointmentId,
  };
}

function toInput(values: FormValues): NoteInput {
  return {
    title: values.title,
    content: values.content,
    category: values.category as NoteInput['category'],
    priority: values.priority as NoteInput['priority'],
    patientId: values.patientId || null,
    appointmentId: values.appointmentId || null,
    tags: values.tags,
    isPrivate: values.isPrivate,
    templateId: values.templateId || null,
  };
}

/**
 * The specification's create/edit modal, made real: a template fills the content with its sections; the patient
 * is chosen among the caller's own; the appointment among that patient's; a psychotherapy note says what
 * belongs in it. Saving keeps a draft (signing is the reader's).
 */
export function NoteEditor(props: {
  opened: boolean;
  /** The draft being edited, or null for a new note. */
  note: Note | null;
  /** A new note about this patient (from the patient chart). */
  patient?: { id: string; name: string } | null;
  /** A new note about this visit of the patient (after a video visit): chosen, with its template. */
  visitId?: string | null;
  onClose: () => void;
  onSaved: (note: Note) => void;
  /**
   * The patient's record beside a medication-management or evaluation note (issue 27, point 7), composed by the
   * page: it gets the note's patient and, once the draft is saved, its id (to link a medication change to it).
   */
  recordAside?: ((context: { patientId: string; noteId: string | null }) => ReactNode) | undefined;
}) {
  return (
    <EditorModal
      // A new form each time the dialog opens for another note.
      key={`${props.opened}-${props.note?.id ?? 'new'}`}
      {...props}
    />
  );
}

function EditorModal({
  opened,
  note,
  patient,
  visitId = null,
  onClose,
  onSaved,
  recordAside,
}: Parameters<typeof NoteEditor>[0]) {
  const { t, i18n } = useTranslation('notes');
  const { data: config } = useAppConfig();
  const [values, setValues] = useState<FormValues>(() =>
    initialValues(note, patient?.id ?? null, note ? null : visitId),
  );
  // A note about a given visit starts from the template for that visit, once templates and visits are known.
  const [visitTemplatePending, setVisitTemplatePending] = useState(!note && !!visitId);
  const [errors, setErrors] = useState<FieldErrors>({});
  const templates = useNoteTemplates();
  const templateText = useTemplateText();
  const appointments = usePatientAppointments(values.patientId || null);
  const create = useCreateNote();
  const update = useUpdateNote();
  const saving = create.isPending || update.isPending;
  const failure = create.error ?? update.error;

  // The patient's visits nearest first; until one is chosen, today's (in the practice's time zone) is the one.
  const practiceNow = zonedDateTime(new Date(), config?.practiceTimeZone ?? 'America/New_York');
  const visits = orderVisitsForNote(appointments.data ?? [], practiceNow, note?.appointmentId ?? null);
  const appointmentId = values.appointmentChosen ? values.appointmentId : (visits.todaysId ?? '');
  const template = templates.data?.find((x) => x.id === values.templateId);
  const visitDate = visits.visits.find((x) => x.id === appointmentId)?.date ?? null;
  const title = values.titleTyped
    ? values.title
    : template
      ? templateTitle(templateText(template).name, visitDate, i18n.language)
      : '';
  const current: FormValues = { ...values, appointmentId, title };
  const templateKey = template?.key ?? null;
  const aside =
    recordAside && values.patientId && templateKey && NOTE_TEMPLATES_WITH_RECORD.some((key) => key === templateKey)
      ? recordAside({ patientId: values.patientId, noteId: note?.id ?? null })
      : null;

  const set = <K extends keyof FormValues>(field: K, value: FormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors(({ [field]: _gone, ...rest }) => rest);
  };

  const applyTemplate = (id: string | null) => {
    const chosen = templates.data?.find((x) => x.id === id);
    setValues((v) => ({
      ...v,
      templateId: id ?? '',
      ...(chosen ? { content: templateText(chosen).body, category: chosen.category } : {}),
      // An empty title is filled from the template again.
      titleTyped: v.titleTyped && title.trim() !== '',
    }));
  };

  const submit = () => {
    const input = toInput(current);
    const parsed = NoteInputSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(fieldErrorsFromZod(parsed.error));
      return;
    }
    const options = {
      onSuccess: (saved: Note) => onSaved(saved),
      onError: (error: Error) => setErrors(fieldErrorsFromServer(error) ?? {}),
    };
    if (note) update.mutate({ ...input, id: note.id }, options);
    else create.mutate(input, options);
  };

  const message = (field: string) => (errors[field] ? errorText(errors[field]) : undefined);
  const inline = failure ? fieldErrorsFromServer(failure) : null;
  const failureText =
    failure && !(inline && Object.keys(inline).length > 0)
      ? hasPublicMessage(failure)
        ? describeError(failure)
        : errorText(coded('noteMessages.saveFailed'))
      : null;
  const requiredMessage =
    errors['title']?.id === 'noteMessages.titleAndContentRequired' ? errorText(errors['title']) : null;

  const activeTemplates = (templates.data ?? []).filter((x) => x.isActive);
  if (visitTemplatePending && visitId && templates.data && appointments.data) {
    setVisitTemplatePending(false);
    const key = templateKeyForVisit(appointments.data, visitId);
    const chosen = activeTemplates.find((x) => x.key === key);
    if (chosen) {
      setValues((v) => ({
        ...v,
        templateId: chosen.id,
        content: v.content || templateText(chosen).body,
        category: chosen.category,
      }));
    }
  }

  return (
    <Modal
      opened={opened}
      onClose={() => {
        if (!saving) onClose();
      }}
      title={note ? t('editor.editTitle') : t('editor.createTitle')}
      size={aside ? '90%' : 'xl'}
      fullScreen={false}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      closeButtonProps={{ 'aria-label': t('editor.cancel') }}
    >
      <Grid>
        <Grid.Col span={{ base: 12, lg: aside ? 7 : 12 }}>
          <form
            noValidate
            onSubmit={(event: SubmitEvent<HTMLFormElement>) => {
              event.preventDefault();
              submit();
            }}
          >
            <Stack gap="sm">
              {requiredMessage ? (
                <Alert color="red" role="alert" variant="light">
                  {requiredMessage}
                </Alert>
              ) : null}
              {failureText ? (
                <Alert color="red" role="alert" variant="light">
                  {failureText}
                </Alert>
              ) : null}
              {!note ? (
                <Select
                  label={t('editor.template')}
                  placeholder={t('editor.templatePlaceholder')}
                  description={values.content ? t('editor.templateReplaces') : undefined}
                  data={activeTemplates.map((x: NoteTemplate) => ({ value: x.id, label: templateText(x).name }))}
                  value={values.templateId || null}
                  onChange={applyTemplate}
                  clearable
                />
              ) : null}
              <TextInput
                label={t('editor.title')}
                value={title}
                onChange={(e) => {
                  const typed = e.currentTarget.value;
                  setValues((v) => ({ ...v, title: typed, titleTyped: true }));
                  setErrors(({ title: _gone, ...rest }) => rest);
                }}
                error={requiredMessage ? undefined : message('title')}
                required
                maxLength={200}
              />
              <Textarea
                label={t('editor.content')}
                description={t('editor.contentHelp')}
                value={values.content}
                onChange={(e) => set('content', e.currentTarget.value)}
                error={message('content')}
                required
                autosize
                minRows={8}
                maxRows={20}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Select
                  label={t('editor.category')}
                  data={NOTE_CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) }))}
                  value={values.category}
                  onChange={(v) => set('category', v ?? 'general')}
                  allowDeselect={false}
                />
                <Select
                  label={t('editor.priority')}
                  data={NOTE_PRIORITIES.map((p) => ({ value: p, label: t(`priority.${p}`) }))}
                  value={values.priority}
                  onChange={(v) => set('priority', v ?? 'medium')}
                  allowDeselect={false}
                />
                <PatientPicker
                  label={t('editor.patient')}
                  placeholder={t('editor.patientPlaceholder')}
                  nothingFound={t('editor.noPatients')}
                  value={values.patientId}
                  onChange={(id) => {
                    set('patientId', id ?? '');
                    // Another patient: their visit of today is chosen by itself again.
                    setValues((v) => ({ ...v, appointmentId: '', appointmentChosen: false }));
                  }}
                  error={message('patientId')}
                  required={false}
                  disabled={!!patient}
                  selectedLabel={patient?.name ?? note?.patientName}
                />
                <Select
                  label={t('editor.appointment')}
                  placeholder={t('editor.appointmentPlaceholder')}
                  data={visits.visits.map((a) => ({ value: a.id, label: formatVisit(a, i18n.language) }))}
                  value={appointmentId || null}
                  onChange={(v) => {
                    set('appointmentId', v ?? '');
                    setValues((x) => ({ ...x, appointmentChosen: true }));
                  }}
                  disabled={!values.patientId}
                  error={message('appointmentId')}
                  clearable
                />
              </SimpleGrid>
              <NoteTagsField tags={values.tags} onChange={(tags) => set('tags', tags)} error={message('tags')} />
              <Checkbox
                label={t('editor.private')}
                description={t('editor.privateHelp')}
                checked={values.isPrivate}
                onChange={(e) => set('isPrivate', e.currentTarget.checked)}
                error={message('isPrivate')}
              />
              {values.isPrivate ? (
                <Alert variant="light" color="violet" title={t('editor.privateGuideTitle')}>
                  <Text size="sm">{t('editor.privateGuide')}</Text>
                </Alert>
              ) : null}
              <Text size="sm" c="dimmed">
                {t('editor.draftInfo')}
              </Text>
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={onClose} disabled={saving}>
                  {t('editor.cancel')}
                </Button>
                <Button type="submit" loading={saving}>
                  {t('editor.save')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Grid.Col>
        {aside ? <Grid.Col span={{ base: 12, lg: 5 }}>{aside}</Grid.Col> : null}
      </Grid>
    </Modal>
  );
}
