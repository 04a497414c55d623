import {
  Alert,
  Button,
  Checkbox,
  Grid,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  ACCESS_REQUEST_HONEYPOT_FIELD,
  ERROR_CODES,
  PatientAccessRequestSchema,
  patientAccessRequestDefaults,
  PROVIDER_ACCESS_REQUEST_DEFAULTS,
  ProviderAccessRequestSchema,
  type CodedMessage,
  type Locale,
} from '@telehealth/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { CrisisLines } from '../../../components/crisis-lines/index.ts';
import { isGraphQLRequestError } from '../../../lib/graphql.ts';
import { practiceHoursQueryOptions } from '../../../lib/practice-hours.ts';
import { fieldErrorsFromServer, fieldErrorsFromZod, type FieldErrors } from '../../../lib/form-errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useSubmitAccessRequest, type AccessRequestKind } from '../api/access-requests.ts';
import { clearDraft, readDraft, saveDraft } from '../utils/access-request-draft.ts';
import { PATIENT_SECTIONS, PROVIDER_SECTIONS, type FieldSpec } from './access-request-fields.ts';

type Values = Record<string, string | string[] | boolean>;

/** The message above the submit button; worded when shown, so it follows a change of language. */
type FormProblem = { kind: 'fix'; count: number } | { kind: 'tooMany'; minutes: number } | { kind: 'submit' };

function siteLocale(language: string): Locale {
  return language.startsWith('es') ? 'es' : 'en';
}

function initialValues(kind: AccessRequestKind, locale: Locale): Values {
  const sections = kind === 'provider' ? PROVIDER_SECTIONS : PATIENT_SECTIONS;
  const values: Values = {};
  for (const section of sections) {
    for (const field of section.fields) values[field.name] = field.type === 'multi' ? [] : '';
  }
  const defaults = kind === 'provider' ? PROVIDER_ACCESS_REQUEST_DEFAULTS : patientAccessRequestDefaults(locale);
  for (const [key, value] of Object.entries(defaults) as [string, string | boolean | readonly string[]][]) {
    values[key] = typeof value === 'object' ? [...value] : value;
  }
  values[ACCESS_REQUEST_HONEYPOT_FIELD] = '';
  return values;
}

function fieldId(kind: AccessRequestKind, name: string): string {
  return `${kind}-request-${name}`;
}

export interface AccessRequestFormProps {
  kind: AccessRequestKind;
  /** Called with the name the thank-you screen addresses (last name for providers, first name for patients). */
  onSubmitted: (name: string) => void;
}

/**
 * The doctor or patient access request form: every field of the specification, checked with the shared schema
 * before sending and by the server again; messages at the fields; 'Submitting Request...' while sending.
 */
export function AccessRequestForm({ kind, onSubmitted }: AccessRequestFormProps) {
  const { t: typedT, i18n } = useTranslation('access-request');
  // Keys are built from the field lists (labels.<kind>.<field>, options.<field>.<value>); all exist in en.
  const t = typedT as unknown as (key: string, options?: Record<string, unknown>) => string;
  const locale = siteLocale(i18n.language);
  // What this history entry kept of an earlier visit (Back after leaving the page), else a blank form.
  const [draft] = useState(() => readDraft(kind, initialValues(kind, locale)));
  const [values, setValues] = useState<Values>(() => draft?.values ?? initialValues(kind, locale));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formProblem, setFormProblem] = useState<FormProblem | null>(null);
  const languageTouched = useRef(draft?.languageTouched ?? false);
  const submit = useSubmitAccessRequest(kind);
  // The preferred times a patient may pick: only those the practice's hours cover (decision 045). Until the
  // answer comes, or if it never does, every option of the specification is offered.
  const practiceHours = useQuery({ ...practiceHoursQueryOptions, enabled: kind === 'patient' });
  const coveredTimes: readonly string[] | null = practiceHours.data?.preferredTimes ?? null;
  const sections = kind === 'provider' ? PROVIDER_SECTIONS : PATIENT_SECTIONS;

  // The patient's language preference follows the language the site is shown in, until they choose one.
  useEffect(() => {
    if (kind !== 'patient' || languageTouched.current) return;
    setValues((previous) => ({
      ...previous,
      languagePreference: patientAccessRequestDefaults(locale).languagePreference,
    }));
  }, [kind, locale]);

  // Kept in the entry's history state a moment after each change and when the page is left (decision 048).
  useEffect(() => {
    const save = () => {
      saveDraft(kind, { values, languageTouched: languageTouched.current });
    };
    const timer = window.setTimeout(save, 300);
    window.addEventListener('pagehide', save);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('pagehide', save);
    };
  }, [kind, values]);

  const setValue = (name: string, value: string | string[] | boolean) => {
    if (name === 'languagePreference') languageTouched.current = true;
    setValues((previous) => ({ ...previous, [name]: value }));
    if (errors[name]) {
      setErrors((previous) => {
        const next = { ...previous };
        delete next[name];
        return next;
      });
    }
  };

  const label = (name: string) => t(`labels.${kind}.${name}`);

  /** The shared schema's messages (the browser's own check or the server's), by id, under the field's label. */
  const translateError = (name: string, message: CodedMessage) => errorText(message, { label: label(name) });

  const showErrors = (fieldErrors: FieldErrors) => {
    setErrors(fieldErrors);
    setFormProblem({ kind: 'fix', count: Object.keys(fieldErrors).length });
    const order = [...sections.flatMap((section) => section.fields.map((field) => field.name)), 'consentToContact'];
    const first = order.find((name) => name in fieldErrors);
    if (first) document.getElementById(fieldId(kind, first))?.focus();
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormProblem(null);
    const input = { ...values, locale };
    const schema = kind === 'provider' ? ProviderAccessRequestSchema : PatientAccessRequestSchema;
    const parsed = schema.safeParse(
      Object.fromEntries(
        Object.entries(input).map(([k, v]) => [k, typeof v === 'string' && v.trim() === '' ? null : v]),
      ),
    );
    if (!parsed.success) {
      showErrors(fieldErrorsFromZod(parsed.error));
      return;
    }
    submit.mutate(input, {
      onSuccess: () => {
        clearDraft(kind);
        onSubmitted(String(kind === 'provider' ? values['lastName'] : values['firstName']).trim());
      },
      onError: (error) => {
        const fieldErrors = fieldErrorsFromServer(error);
        if (fieldErrors && Object.keys(fieldErrors).length > 0) {
          showErrors(fieldErrors);
          return;
        }
        if (isGraphQLRequestError(error) && error.code === ERROR_CODES.tooManyRequests) {
          const seconds = Number(error.errors[0]?.extensions?.['retryAfterSeconds'] ?? 0);
          setFormProblem({ kind: 'tooMany', minutes: Math.max(1, Math.ceil(seconds / 60)) });
          return;
        }
        setFormProblem({ kind: 'submit' });
      },
    });
  };

  const renderField = (field: FieldSpec) => {
    const id = fieldId(kind, field.name);
    const fieldError = errors[field.name];
    const error = fieldError ? translateError(field.name, fieldError) : undefined;
    const common = {
      id,
      name: field.name,
      label: label(field.name),
      withAsterisk: field.required === true,
      required: false,
      'aria-required': field.required === true,
      error,
      autoComplete: field.autoComplete ?? 'off',
    };
    const value = values[field.name];
    const text = typeof value === 'string' ? value : '';
    switch (field.type) {
      case 'textarea':
        return (
          <Textarea
            {...common}
            autosize
            minRows={2}
            maxRows={6}
            value={text}
            onChange={(e) => {
              setValue(field.name, e.currentTarget.value);
            }}
          />
        );
      case 'select': {
        const hasDefault =
          field.name === 'practiceType' ||
          field.name === 'preferredContactMethod' ||
          field.name === 'languagePreference';
        const options =
          field.name === 'preferredAppointmentTimes' && coveredTimes
            ? (field.options ?? []).filter((option) => coveredTimes.includes(option) || option === text)
            : (field.options ?? []);
        const data = options.map((option) => ({
          value: option,
          label: t(`options.${field.name}.${option}`),
        }));
        return (
          <NativeSelect
            {...common}
            value={text}
            data={hasDefault ? data : [{ value: '', label: t('form.choose') }, ...data]}
            onChange={(e) => {
              setValue(field.name, e.currentTarget.value);
            }}
          />
        );
      }
      case 'multi':
        return (
          <Checkbox.Group
            id={id}
            label={label(field.name)}
            description={t('form.chooseAny')}
            error={error}
            value={Array.isArray(value) ? value : []}
            onChange={(next) => {
              setValue(field.name, next);
            }}
          >
            <Grid gap="xs" mt="xs">
              {(field.options ?? []).map((option) => (
                <Grid.Col key={option} span={{ base: 12, sm: 6 }}>
                  <Checkbox value={option} label={t(`options.${field.name}.${option}`)} />
                </Grid.Col>
              ))}
            </Grid>
          </Checkbox.Group>
        );
      default:
        return (
          <TextInput
            {...common}
            type={field.type === 'zip' ? 'text' : field.type}
            inputMode={field.type === 'zip' ? 'numeric' : undefined}
            value={text}
            onChange={(e) => {
              setValue(field.name, e.currentTarget.value);
            }}
          />
        );
    }
  };

  const formError =
    formProblem?.kind === 'fix'
      ? t('form.fixErrors', { count: formProblem.count })
      : formProblem?.kind === 'tooMany'
        ? t('form.tooMany', { count: formProblem.minutes })
        : formProblem?.kind === 'submit'
          ? t('form.submitError')
          : null;
  const consent = values['consentToContact'] === true;
  const sending = submit.isPending;

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t(`${kind}.formLabel`)}>
      <Stack gap="xl">
        {kind === 'patient' ? (
          <Paper p="md" withBorder bg="blue.0" component="section" aria-labelledby="hipaa-notice-title">
            <Title order={2} size="h5" id="hipaa-notice-title" mb={4}>
              {t('patient.hipaaTitle')}
            </Title>
            <Text size="sm">{t('patient.hipaaBody')}</Text>
          </Paper>
        ) : null}
        {sections.map((section) => (
          <fieldset key={section.key} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
            <Title order={2} size="h4" component="legend" mb="sm">
              {t(`sections.${kind}.${section.key}`)}
            </Title>
            <Grid gap="md">
              {section.fields.map((field) => (
                <Grid.Col key={field.name} span={{ base: 12, sm: field.span ?? 12 }}>
                  {renderField(field)}
                </Grid.Col>
              ))}
            </Grid>
          </fieldset>
        ))}

        {/* A trap for bots: people never see or reach it, so it stays empty. */}
        <div
          aria-hidden="true"
          style={{ position: 'absolute', left: '-10000px', width: 1, height: 1, overflow: 'hidden' }}
        >
          <label htmlFor={fieldId(kind, 'website')}>Website</label>
          <input
            id={fieldId(kind, 'website')}
            name={ACCESS_REQUEST_HONEYPOT_FIELD}
            type="text"
            tabIndex={-1}
            autoComplete="off"
            value={String(values[ACCESS_REQUEST_HONEYPOT_FIELD] ?? '')}
            onChange={(e) => {
              setValue(ACCESS_REQUEST_HONEYPOT_FIELD, e.currentTarget.value);
            }}
          />
        </div>

        {kind === 'patient' ? (
          <>
            <CrisisLines />
            <Text size="sm" c="dark.6">
              {t('patient.crisisMore')}
            </Text>
            <Checkbox
              id={fieldId(kind, 'consentToContact')}
              checked={consent}
              onChange={(e) => {
                setValue('consentToContact', e.currentTarget.checked);
              }}
              label={t('patient.consentLabel')}
              error={errors['consentToContact'] ? t('form.consentRequired') : undefined}
            />
          </>
        ) : null}

        {formError ? (
          <Alert color="red" variant="light" role="alert">
            {formError}
          </Alert>
        ) : null}

        <Button type="submit" size="md" loading={false} disabled={sending || (kind === 'patient' && !consent)}>
          {sending ? t('form.submitting') : t(`${kind}.submit`)}
        </Button>
      </Stack>
    </form>
  );
}
