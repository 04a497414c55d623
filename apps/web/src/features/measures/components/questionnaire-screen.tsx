import { Alert, Button, Group, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import {
  INSTRUMENT_DEFINITIONS,
  needsSafetyPath,
  optionsOf,
  type AnswerOption,
  type BandKey,
  type Instrument,
} from '@telehealth/shared';
import { useState, type ReactNode, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { CrisisLines } from '../../../components/crisis-lines/index.ts';
import { LoadingLine } from '../../../components/loading-line.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { useMyQuestionnaires, useSubmitQuestionnaire } from '../api/measures-api.ts';

type Language = 'en' | 'es';

/**
 * `/questionnaires/{id}`: the patient fills in a rating scale (PHQ-9, GAD-7, PCL-5, AUDIT-C), one item under the
 * other (made for a phone).
 * An answer above "Not at all" to the PHQ-9's item 9 puts the crisis lines on the screen at once, before anything
 * is sent and whatever the network does next; the server raises the alert when the answers arrive.
 */
export function QuestionnaireScreen({ id }: { id: string }) {
  const { t, i18n } = useTranslation('measures');
  const mine = useMyQuestionnaires();
  const submit = useSubmitQuestionnaire();
  const [answers, setAnswers] = useState<(number | null)[]>([]);
  const [difficulty, setDifficulty] = useState<number | null>(null);
  const [missing, setMissing] = useState<number[]>([]);
  const [done, setDone] = useState<{
    instrument: Instrument;
    total: number | null;
    band: string | null;
    safetyAlert: boolean;
  } | null>(null);
  const questionnaire = mine.data?.find((q) => q.id === id) ?? null;
  const definition = questionnaire ? INSTRUMENT_DEFINITIONS[questionnaire.instrument] : null;
  usePageTitle(definition ? definition.name : t('form.loading'));
  const language: Language = i18n.language.startsWith('es') ? 'es' : 'en';

  // The safety path on the screen: from the answer itself, not from the server's reply.
  const instrument = done?.instrument ?? definition?.id;
  const crisis = instrument !== undefined && needsSafetyPath(instrument, answers);

  if (done) {
    return (
      <Stack gap="md" maw={720}>
        <Title order={1}>{t(`instrument.${done.instrument}`)}</Title>
        <Text role="status">{t('form.thanks')}</Text>
        {done.total !== null && done.band ? (
          <ScoreExplained instrument={done.instrument} total={done.total} band={done.band} />
        ) : null}
        {done.safetyAlert || crisis ? <CrisisPanel text={t('form.crisisAfter')} /> : null}
        <Button component={Link} to="/dashboard" variant="default" w="fit-content">
          {t('form.back')}
        </Button>
      </Stack>
    );
  }

  if (mine.isPending) return <LoadingLine label={t('form.loading')} />;
  if (!questionnaire || !definition) {
    return (
      <Stack gap="md" maw={720}>
        <Alert color="yellow" variant="light">
          {t('form.notFound')}
        </Alert>
        <Button component={Link} to="/dashboard" variant="default" w="fit-content">
          {t('form.back')}
        </Button>
      </Stack>
    );
  }

  const send = () => {
    const unanswered = definition.items.map((_, i) => i).filter((i) => typeof answers[i] !== 'number');
    setMissing(unanswered);
    if (unanswered.length > 0) return;
    submit.mutate(
      {
        id,
        answers: answers.slice(0, definition.items.length) as number[],
        difficulty: definition.difficulty ? difficulty : null,
      },
      {
        onSuccess: (result) =>
          setDone({
            instrument: definition.id,
            total: result.questionnaire.total,
            band: result.questionnaire.band,
            safetyAlert: result.safetyAlert,
          }),
      },
    );
  };

  return (
    <Stack gap="md" maw={720}>
      <Title order={1}>{t(`instrument.${definition.id}`)}</Title>
      <Text fw={600}>{definition.question[language]}</Text>
      <form
        noValidate
        onSubmit={(event: SubmitEvent<HTMLFormElement>) => {
          event.preventDefault();
          send();
        }}
      >
        <Stack gap="sm">
          {definition.items.map((item, index) => (
            <ItemQuestion
              key={item.id}
              options={optionsOf(definition, index)}
              label={t('form.itemLabel', { number: index + 1, text: item.text[language] })}
              value={answers[index] ?? null}
              language={language}
              missing={missing.includes(index)}
              onChange={(value) => {
                setAnswers((current) => {
                  const next = [...current];
                  next[index] = value;
                  return next;
                });
                setMissing((m) => m.filter((i) => i !== index));
              }}
              after={
                crisis && index === definition.items.length - 1 && definition.id === 'phq9' ? (
                  <CrisisPanel text={t('form.crisisNow')} />
                ) : null
              }
            />
          ))}
          {definition.difficulty ? (
            <Paper withBorder p="md" radius="md">
              <Radio.Group
                label={`${definition.difficulty.text[language]} ${t('form.difficultyOptional')}`}
                value={difficulty === null ? null : String(difficulty)}
                onChange={(v) => setDifficulty(Number(v))}
              >
                <Stack gap="xs" mt="xs">
                  {definition.difficulty.options.map((option) => (
                    <Radio key={option.value} value={String(option.value)} label={option.text[language]} />
                  ))}
                </Stack>
              </Radio.Group>
            </Paper>
          ) : null}
          {missing.length > 0 ? (
            <Alert color="red" variant="light" role="alert">
              {t('form.answerEvery', { items: missing.map((i) => i + 1).join(', ') })}
            </Alert>
          ) : null}
          {submit.isError ? (
            <Alert color="red" variant="light" role="alert">
              {t('form.sendFailed')}
            </Alert>
          ) : null}
          <Group>
            <Button type="submit" size="md" loading={submit.isPending}>
              {t('form.submit')}
            </Button>
            <Button component={Link} to="/dashboard" variant="default" size="md">
              {t('form.back')}
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            {definition.notice[language]}
          </Text>
        </Stack>
      </form>
    </Stack>
  );
}

function ItemQuestion(props: {
  options: readonly AnswerOption[];
  label: string;
  value: number | null;
  language: Language;
  missing: boolean;
  onChange: (value: number) => void;
  after: ReactNode;
}) {
  return (
    <>
      <Paper withBorder p="md" radius="md" style={props.missing ? { borderColor: 'var(--mantine-color-red-9)' } : {}}>
        <Radio.Group
          label={props.label}
          value={props.value === null ? null : String(props.value)}
          onChange={(v) => props.onChange(Number(v))}
          required
          styles={{ label: { fontWeight: 600, marginBottom: 4 } }}
        >
          <Stack gap="xs" mt="xs">
            {props.options.map((option) => (
              <Radio key={option.value} value={String(option.value)} label={option.text[props.language]} size="md" />
            ))}
          </Stack>
        </Radio.Group>
      </Paper>
      {props.after}
    </>
  );
}

/** The crisis lines with a sentence: shown at once, announced to screen readers. */
function CrisisPanel({ text }: { text: string }) {
  return (
    <Alert color="red" variant="light" role="alert" data-testid="crisis-panel">
      <Stack gap="xs">
        <Text fw={600}>{text}</Text>
        <CrisisLines />
      </Stack>
    </Alert>
  );
}

/**
 * The patient's own score, neutral: a number on a scale is information, not a success or a failure, so it gets
 * no green box and no red one. It says what the band means and what happens next (decision 028).
 */
function ScoreExplained({ instrument, total, band }: { instrument: Instrument; total: number; band: string }) {
  const { t } = useTranslation('measures');
  const definition = INSTRUMENT_DEFINITIONS[instrument];
  const bandKey = band as BandKey;
  // From the instrument's review band up ("moderate" for the PHQ-9) the provider reads the answers before the
  // visit; below it, at the visit.
  const keys = definition.bands.map((b) => b.key);
  const higher = keys.indexOf(bandKey) >= keys.indexOf(definition.reviewFrom);
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component="section"
      aria-labelledby="score-title"
      data-testid="score-explained"
    >
      <Stack gap="xs">
        <Title order={2} size="h4" id="score-title">
          {t('form.score', { total, band: t(`band.${bandKey}`) })}
        </Title>
        <Text size="sm" c="dimmed">
          {t(`result.scale.${instrument}`, { max: definition.maxScore })}
        </Text>
        <Text>{t(`result.meaning.${bandKey}`, { condition: t(`result.condition.${instrument}`) })}</Text>
        <Text>{t('result.notDiagnosis')}</Text>
        <Text fw={600}>{t('result.nextTitle')}</Text>
        <Text>{t(higher ? 'result.nextHigher' : 'result.nextLower')}</Text>
      </Stack>
    </Paper>
  );
}
