import { Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { INSTRUMENT_DEFINITIONS } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import type { QuestionnaireResult } from '../api/measures-api.ts';
import { answerLines, difficultyLine } from '../utils/answer-lines.ts';

/**
 * One completed questionnaire, item by item: each question as the patient read it and the answer they chose, in
 * the reader's language. An answer above "Not at all" to the PHQ-9's item 9 is marked in words as well as in
 * colour, so it is not missed by anyone (nor by a screen reader).
 */
export function QuestionnaireAnswers({
  result,
  title,
  onClose,
}: {
  result: QuestionnaireResult;
  title: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('measures');
  const language = i18n.language.startsWith('es') ? 'es' : 'en';
  const lines = answerLines(result.instrument, result.answers ?? [], language);
  const difficulty = difficultyLine(result.instrument, result.difficulty, language);
  const definition = INSTRUMENT_DEFINITIONS[result.instrument];
  return (
    <Modal
      opened
      onClose={onClose}
      title={title}
      size="lg"
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      closeButtonProps={{ 'aria-label': t('answers.close') }}
    >
      <Stack gap="sm">
        {result.total !== null ? (
          <Text fw={600}>
            {t('answers.total', {
              total: result.total,
              max: definition.maxScore,
              band: result.band ? t(`band.${result.band as 'mild'}`) : '–',
            })}
          </Text>
        ) : null}
        <Text size="sm">{definition.question[language]}</Text>
        {result.answers === null ? (
          <Text c="dimmed">{t('answers.none')}</Text>
        ) : (
          <Stack component="ol" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
            {lines.map((line) => (
              <Paper
                key={line.number}
                component="li"
                withBorder
                p="sm"
                radius="md"
                data-testid="answer-item"
                data-flagged={line.flagged ? 'true' : undefined}
                style={
                  line.flagged
                    ? {
                        borderColor: 'var(--mantine-color-red-9)',
                        borderWidth: 2,
                        background: 'var(--mantine-color-red-0)',
                      }
                    : undefined
                }
              >
                <Text fw={600}>{t('form.itemLabel', { number: line.number, text: line.question })}</Text>
                <Group gap="xs" mt={4} wrap="wrap">
                  <Text>
                    {line.answer === null
                      ? t('answers.unanswered')
                      : t('answers.answer', { answer: line.answer, value: line.value })}
                  </Text>
                  {line.flagged ? (
                    <Text fw={700} c="red.9">
                      {t('answers.flagged')}
                    </Text>
                  ) : null}
                </Group>
              </Paper>
            ))}
          </Stack>
        )}
        {difficulty ? (
          <Paper withBorder p="sm" radius="md">
            <Text fw={600}>{difficulty.question}</Text>
            <Text mt={4}>{difficulty.answer}</Text>
          </Paper>
        ) : null}
      </Stack>
    </Modal>
  );
}
