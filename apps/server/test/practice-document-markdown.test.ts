/**
 * A practice document's Markdown as pdfmake content (decision 066): headings, paragraphs, emphasis, lists (nested,
 * ordered from their start) and block quotes; raw HTML stays literal text, never markup; links keep their address.
 */
import { describe, expect, it } from 'vitest';
import { markdownToPdfContent } from '../src/practice-documents/markdown-pdf.ts';

describe('markdownToPdfContent', () => {
  it('turns headings and paragraphs with emphasis into styled text', () => {
    expect(markdownToPdfContent('# Consent\n\nYou **must** read *this* ~~now~~.')).toEqual([
      { text: ['Consent'], fontSize: 18, bold: true, margin: [0, 10, 0, 4] },
      {
        text: ['You ', { text: ['must'], bold: true }, ' read ', { text: ['this'], italics: true }, ' ~~now~~.'],
        margin: [0, 0, 0, 6],
      },
    ]);
  });

  it('keeps lists, ordered ones from their start, and nested ones inside their item', () => {
    const [ordered, bullets] = markdownToPdfContent('3. Three\n4. Four\n\n---\n\n- One\n  - Inner\n- Two');
    expect(ordered).toEqual({
      ol: [
        { text: ['Three'], margin: [0, 0, 0, 6] },
        { text: ['Four'], margin: [0, 0, 0, 6] },
      ],
      start: 3,
      margin: [0, 0, 0, 6],
    });
    expect(bullets).toMatchObject({ canvas: [{ type: 'line' }] });
    const list = markdownToPdfContent('- One\n  - Inner\n- Two')[0] as { ul: unknown[] };
    expect(list.ul).toEqual([
      {
        stack: [
          { text: ['One'], margin: [0, 0, 0, 6] },
          { ul: [{ text: ['Inner'], margin: [0, 0, 0, 6] }], margin: [0, 0, 0, 6] },
        ],
      },
      { text: ['Two'], margin: [0, 0, 0, 6] },
    ]);
  });

  it('keeps raw HTML as its literal text and links with their address', () => {
    const content = markdownToPdfContent(
      '<script>alert(1)</script>\n\nSee [our notice](https://example.org/npp) <b>now</b>.',
    );
    expect(content[0]).toEqual({ text: '<script>alert(1)</script>', margin: [0, 0, 0, 6] });
    expect(content[1]).toEqual({
      text: ['See ', 'our notice', ' (https://example.org/npp)', ' ', '<b>', 'now', '</b>', '.'],
      margin: [0, 0, 0, 6],
    });
  });

  it('quotes block quotes in italics, indented', () => {
    expect(markdownToPdfContent('> **Example text.** Replace it.')).toEqual([
      {
        stack: [{ text: [{ text: ['Example text.'], bold: true }, ' Replace it.'], margin: [0, 0, 0, 6] }],
        margin: [16, 0, 0, 6],
        italics: true,
      },
    ]);
  });
});
