import { render, screen } from '@testing-library/react';
import { BUILT_IN_NOTE_TEMPLATES } from '@telehealth/shared';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it } from 'vitest';

import english from '../../../locales/en/notes.json';
import spanish from '../../../locales/es/notes.json';
import { NoteContent } from './note-content.tsx';

describe('a note’s content', () => {
  it('keeps paragraphs, lists and section headings, and never runs markup', () => {
    const { container } = render(
      <MantineProvider>
        <NoteContent
          content={
            '## Plan\n\nFirst paragraph.\n\n- one\n- two\n\n<img src=x onerror="alert(1)"><script>alert(2)</script> [link](javascript:alert(3))'
          }
        />
      </MantineProvider>,
    );
    expect(screen.getByRole('heading', { name: 'Plan' })).toBeVisible();
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['one', 'two']);
    expect(container.querySelector('img, script, a, [onerror]')).toBeNull();
    expect(container.textContent).toContain('link');
  });
});

describe('the built-in templates', () => {
  it('give the mental status exam and the risk assessment their usual fields, each with a prompt', () => {
    const evaluation = BUILT_IN_NOTE_TEMPLATES.find((x) => x.key === 'psychiatricEvaluation')!.body;
    const risk = BUILT_IN_NOTE_TEMPLATES.find((x) => x.key === 'riskAssessment')!.body;
    const fields = (body: string, heading: string) =>
      body
        .split('## ')
        .find((section) => section.startsWith(heading))!
        .split('\n')
        .filter((line) => line.startsWith('- '))
        .map((line) => {
          expect(line).toMatch(/^- [^:]+: _.+_$/);
          return line.slice(2, line.indexOf(':'));
        });
    // prettier-ignore
    expect(fields(evaluation, 'Mental status exam')).toEqual(['Appearance', 'Behavior', 'Speech', 'Mood', 'Affect',
      'Thought process', 'Thought content', 'Perception', 'Cognition', 'Insight', 'Judgment']);
    const riskItems = [
      'Suicidal ideation',
      'Plan',
      'Intent',
      'Means and access',
      'Past attempts',
      'Self-harm',
      'Homicidal ideation',
      'Protective factors',
      'Risk level',
      'Safety plan',
    ];
    expect(fields(evaluation, 'Risk assessment')).toEqual(riskItems);
    expect(fields(risk, 'Risk assessment')).toEqual(riskItems);
  });

  it('are in English exactly as the server seeds them, and translated into Spanish', () => {
    for (const template of BUILT_IN_NOTE_TEMPLATES) {
      expect(english.builtInTemplates[template.key]).toEqual({ name: template.name, body: template.body });
      // The same shape line by line: headings, list items (fields), prompts in italics and blank lines.
      const shape = (body: string) => body.split('\n').map((line) => /^(## |- |_|$)/.exec(line)?.[1] ?? 'text');
      expect(shape(spanish.builtInTemplates[template.key].body)).toEqual(shape(template.body));
    }
  });
});
