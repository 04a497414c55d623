import { Button, Checkbox, Group, NativeSelect, Paper, Radio, Stack, Text, TextInput } from '@mantine/core';
import {
  BILLING_LIMITS,
  formatCents,
  PLACES_OF_SERVICE,
  VisitCodingInputSchema,
  type PlaceOfService,
} from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { FormFooter } from '../../../components/form-footer.tsx';
import { useSchemaForm } from '../../../hooks/use-schema-form.ts';
import { useCodeVisit, type VisitCoding } from '../api/billing-api.ts';

/** The claim form's letters of the diagnosis pointers. */
export const POINTER_LETTERS = ['A', 'B', 'C', 'D'] as const;

interface ServiceLine {
  key: number;
  feeItemId: string;
  units: string;
  modifiers: string;
  pointers: number[];
}

let nextKey = 1;

/** "95, GT" → ["95", "GT"]: the modifiers as typed, split on commas and spaces. */
function modifiersOf(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((m) => m.trim())
    .filter(Boolean);
}

/** The form's starting lines: the current coding's, or one line with the proposed modifiers. */
function startingLines(coding: VisitCoding): ServiceLine[] {
  if (coding.current)
    return coding.current.services.map((service) => ({
      key: nextKey++,
      feeItemId: service.feeItemId,
      units: String(service.units),
      modifiers: service.modifiers.join(', '),
      pointers: service.diagnosisPointers,
    }));
  return [
    { key: nextKey++, feeItemId: '', units: '1', modifiers: coding.proposal.modifiers.join(', '), pointers: [1] },
  ];
}

/**
 * Codes a completed visit: where it took place, the diagnoses from the patient's problem list in claim order (A to
 * D), and the services from the fee schedule with units, modifiers (the proposal's prefilled) and the diagnoses each
 * points to; the total as it will be charged. Checked by the shared schema here and again by the server.
 */
export function VisitCodingForm({ coding, onDone }: { coding: VisitCoding; onDone: () => void }) {
  const { t, i18n } = useTranslation('billing-ledger');
  const codeVisit = useCodeVisit();
  const [placeOfService, setPlaceOfService] = useState<PlaceOfService>(
    coding.current?.placeOfService ?? coding.proposal.placeOfService,
  );
  const [diagnoses, setDiagnoses] = useState<string[]>(
    coding.current?.diagnosisCodes ?? (coding.problems[0] ? [coding.problems[0].code] : []),
  );
  const [lines, setLines] = useState<ServiceLine[]>(() => startingLines(coding));
  const fees = new Map(coding.feeItems.map((item) => [item.id, item]));
  const { submit, fieldError, failure, pending } = useSchemaForm({
    schema: VisitCodingInputSchema,
    read: () => ({
      appointmentId: coding.appointmentId,
      placeOfService,
      diagnosisCodes: diagnoses,
      services: lines.map((line) => ({
        feeItemId: line.feeItemId,
        units: Number(line.units),
        modifiers: modifiersOf(line.modifiers),
        diagnosisPointers: line.pointers,
      })),
      expectedVersion: coding.current?.version ?? 0,
    }),
    mutation: codeVisit,
    onDone,
  });
  const change = (key: number, patch: Partial<ServiceLine>) =>
    setLines((all) => all.map((line) => (line.key === key ? { ...line, ...patch } : line)));
  const toggleDiagnosis = (code: string, on: boolean) =>
    setDiagnoses((chosen) => (on ? [...chosen, code] : chosen.filter((c) => c !== code)));
  const totalCents = lines.reduce((sum, line) => {
    const units = Number(line.units);
    const fee = fees.get(line.feeItemId)?.feeCents ?? 0;
    return Number.isInteger(units) && units > 0 ? sum + fee * units : sum;
  }, 0);
  const money = (cents: number) => formatCents(cents, i18n.language);

  return (
    <form onSubmit={submit} noValidate aria-label={t('coding.formLabel')}>
      <Stack gap="md">
        <Radio.Group
          label={t('coding.placeOfService')}
          value={placeOfService}
          onChange={(value) => setPlaceOfService(value)}
          error={fieldError('placeOfService')}
          required
        >
          <Stack gap={6} mt={4}>
            {PLACES_OF_SERVICE.map((place) => (
              <Radio key={place} value={place} label={`${place} · ${t(`coding.places.${place}`)}`} />
            ))}
          </Stack>
        </Radio.Group>

        <Stack gap={6}>
          <Text size="sm" fw={500} id="coding-diagnoses">
            {t('coding.diagnoses')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('coding.diagnosesHint', { max: BILLING_LIMITS.maxDiagnoses })}
          </Text>
          {coding.problems.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('coding.noProblems')}
            </Text>
          ) : (
            <Stack gap={4} role="group" aria-labelledby="coding-diagnoses">
              {coding.problems.map((problem) => {
                const position = diagnoses.indexOf(problem.code);
                const letter = position >= 0 ? POINTER_LETTERS[position] : undefined;
                return (
                  <Checkbox
                    key={problem.code}
                    checked={position >= 0}
                    disabled={position < 0 && diagnoses.length >= BILLING_LIMITS.maxDiagnoses}
                    onChange={(e) => toggleDiagnosis(problem.code, e.currentTarget.checked)}
                    label={`${letter ? `${letter}. ` : ''}${problem.code} ${problem.title}`}
                  />
                );
              })}
            </Stack>
          )}
          {fieldError('diagnosisCodes') ? (
            <Text size="sm" c="red" role="alert">
              {fieldError('diagnosisCodes')}
            </Text>
          ) : null}
        </Stack>

        <Stack gap="sm">
          <Text size="sm" fw={500}>
            {t('coding.services')}
          </Text>
          {lines.map((line, index) => (
            <Paper key={line.key} withBorder p="sm" radius="sm">
              <Stack gap="xs">
                <NativeSelect
                  label={t('coding.service', { n: index + 1 })}
                  value={line.feeItemId}
                  onChange={(e) => change(line.key, { feeItemId: e.currentTarget.value })}
                  data={[
                    { value: '', label: t('coding.chooseService') },
                    ...coding.feeItems.map((item) => ({
                      value: item.id,
                      label: `${item.code} · ${item.shortName} · ${money(item.feeCents)}${item.addOn ? ` · ${t('coding.addOn')}` : ''}`,
                    })),
                  ]}
                  error={fieldError(`services.${index}.feeItemId`)}
                  required
                />
                <Group grow align="flex-start" wrap="wrap">
                  <TextInput
                    label={t('coding.units')}
                    inputMode="numeric"
                    value={line.units}
                    onChange={(e) => change(line.key, { units: e.currentTarget.value })}
                    error={fieldError(`services.${index}.units`)}
                    miw={90}
                  />
                  <TextInput
                    label={t('coding.modifiers')}
                    description={t('coding.modifiersHint')}
                    value={line.modifiers}
                    onChange={(e) => change(line.key, { modifiers: e.currentTarget.value })}
                    error={fieldError(`services.${index}.modifiers`) ?? fieldError(`services.${index}.modifiers.0`)}
                    miw={140}
                  />
                </Group>
                <Checkbox.Group
                  label={t('coding.pointers')}
                  value={line.pointers.map(String)}
                  onChange={(values) => change(line.key, { pointers: values.map(Number).sort((a, b) => a - b) })}
                  error={fieldError(`services.${index}.diagnosisPointers`)}
                >
                  <Group gap="md" mt={4}>
                    {diagnoses.map((code, position) => (
                      <Checkbox
                        key={code}
                        value={String(position + 1)}
                        label={POINTER_LETTERS[position]}
                        aria-label={t('coding.pointerOf', { letter: POINTER_LETTERS[position], code, n: index + 1 })}
                      />
                    ))}
                  </Group>
                </Checkbox.Group>
                {lines.length > 1 ? (
                  <Group justify="flex-end">
                    <Button
                      variant="subtle"
                      color="red"
                      size="compact-sm"
                      onClick={() => setLines((all) => all.filter((l) => l.key !== line.key))}
                    >
                      {t('coding.removeService', { n: index + 1 })}
                    </Button>
                  </Group>
                ) : null}
              </Stack>
            </Paper>
          ))}
          {fieldError('services') ? (
            <Text size="sm" c="red" role="alert">
              {fieldError('services')}
            </Text>
          ) : null}
          {lines.length < BILLING_LIMITS.maxServices ? (
            <Group>
              <Button
                variant="light"
                size="compact-sm"
                onClick={() =>
                  setLines((all) => [
                    ...all,
                    {
                      key: nextKey++,
                      feeItemId: '',
                      units: '1',
                      modifiers: coding.proposal.modifiers.join(', '),
                      pointers: [1],
                    },
                  ])
                }
              >
                {t('coding.addService')}
              </Button>
            </Group>
          ) : null}
        </Stack>

        <Text fw={700} data-testid="coding-total">
          {t('coding.total', { amount: money(totalCents) })}
        </Text>
        <FormFooter
          failure={failure}
          pending={pending}
          onCancel={onDone}
          cancelLabel={t('cancel')}
          submitLabel={t('coding.save')}
        />
      </Stack>
    </form>
  );
}
