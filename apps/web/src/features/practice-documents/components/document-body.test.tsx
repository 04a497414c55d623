import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { renderRoutes } from '../../../testing/render.tsx';
import { DocumentBody } from './document-body.tsx';

function renderBody(markdown: string) {
  return renderRoutes([{ path: '/', element: <DocumentBody markdown={markdown} /> }], '/');
}

describe('DocumentBody', () => {
  it('shows headings, emphasis and lists', async () => {
    renderBody('# Consent\n\nYou **must** read *this*.\n\n- One\n- Two');
    expect((await screen.findByRole('heading', { name: 'Consent' })).tagName).toBe('H3');
    expect(screen.getByText('must').tagName).toBe('STRONG');
    expect(screen.getByText('this').tagName).toBe('EM');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['One', 'Two']);
  });

  it('never renders raw HTML, scripts or images, and keeps links safe', async () => {
    const { container } = renderBody(
      '<script>window.hacked = true</script>\n\n<img src="x" onerror="alert(1)">\n\nSee <b>bold</b> [the notice](javascript:alert(1)) and ![logo](https://example.org/a.png) [site](https://example.org).',
    );
    await screen.findByText(/See/);
    expect(container.querySelector('script, img, b, iframe')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    const links = [...container.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).not.toContain('javascript:alert(1)');
    const site = links.find((a) => a.textContent === 'site');
    expect(site?.getAttribute('href')).toBe('https://example.org');
    expect(site?.getAttribute('rel')).toContain('noopener');
  });
});
