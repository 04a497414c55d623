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
    expect(screen.getByRole('heading', { name: 'Plan' })).toBeTruthy();
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['one', 'two']);
    expect(container.querySelector('img, script, a, [onerror]')).toBeNull();
    expect(container.textContent).toContain('link');
  });
});

describe('the built-in templates', () => {
  it('are in English exactly as the server seeds them, and translated into Spanish', () => {
    for (const template of BUILT_IN_NOTE_TEMPLATES) {
      expect(english.builtInTemplates[template.key]).toEqual({ name: template.name, body: template.body });
      expect(spanish.builtInTemplates[template.key].body.split('## ').length).toBe(template.body.split('## ').length);
    }
  });
});
