import type { Content as PdfContent } from 'pdfmake/interfaces.js';
import type { PhrasingContent, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';

/**
 * A document's Markdown as pdfmake content (decision 066): parsed with `mdast-util-from-markdown` (micromark, the
 * parser react-markdown uses in the browser, so both read the same text the same way) and walked: headings,
 * paragraphs, emphasis, strong, lists (nested), block quotes, code, thematic breaks and line breaks. Raw HTML is
 * never rendered: an HTML node is kept as its literal text, like the browser shows it escaped. Links keep their
 * words (the address in brackets after them); images become their alternative text. Nothing here reads a file or
 * a URL.
 */
export function markdownToPdfContent(markdown: string): PdfContent[] {
  const tree = fromMarkdown(markdown);
  return tree.children.flatMap((node) => block(node));
}

type Inline = string | { text: string | Inline[]; bold?: boolean; italics?: boolean; decoration?: 'lineThrough' };

const HEADING_SIZES: Record<number, number> = { 1: 18, 2: 15, 3: 13, 4: 12, 5: 11, 6: 11 };

function block(node: RootContent): PdfContent[] {
  switch (node.type) {
    case 'heading':
      return [
        {
          text: inlines(node.children),
          fontSize: HEADING_SIZES[node.depth] ?? 11,
          bold: true,
          margin: [0, node.depth <= 2 ? 10 : 6, 0, 4],
        },
      ];
    case 'paragraph':
      return [{ text: inlines(node.children), margin: [0, 0, 0, 6] }];
    case 'list': {
      const items = node.children.map((item) => {
        const parts = item.children.flatMap((child) => block(child));
        return parts.length === 1 ? parts[0]! : { stack: parts };
      });
      const list = node.ordered
        ? { ol: items, start: node.start ?? 1, margin: [0, 0, 0, 6] as [number, number, number, number] }
        : { ul: items, margin: [0, 0, 0, 6] as [number, number, number, number] };
      return [list];
    }
    case 'blockquote':
      return [{ stack: node.children.flatMap((child) => block(child)), margin: [16, 0, 0, 6], italics: true }];
    case 'code':
      return [{ text: node.value, margin: [8, 0, 0, 6], preserveLeadingSpaces: true }];
    case 'thematicBreak':
      return [{ canvas: [{ type: 'line', x1: 0, y1: 0, x2: 515, y2: 0, lineWidth: 0.5 }], margin: [0, 4, 0, 8] }];
    case 'html':
      return [{ text: node.value, margin: [0, 0, 0, 6] }];
    case 'table':
      return [
        {
          stack: node.children.map((row) => ({
            text: row.children.map((cell) => inlines(cell.children).concat(' | ')).flat(),
          })),
          margin: [0, 0, 0, 6],
        },
      ];
    default:
      // Definitions, footnotes and the like carry nothing to print.
      return [];
  }
}

function inlines(nodes: readonly PhrasingContent[]): Inline[] {
  return nodes.flatMap((node): Inline[] => {
    switch (node.type) {
      case 'text':
        return [node.value];
      case 'strong':
        return [{ text: inlines(node.children), bold: true }];
      case 'emphasis':
        return [{ text: inlines(node.children), italics: true }];
      case 'delete':
        return [{ text: inlines(node.children), decoration: 'lineThrough' }];
      case 'inlineCode':
        return [node.value];
      case 'break':
        return ['\n'];
      case 'link': {
        const words = inlines(node.children);
        return [...words, ` (${node.url})`];
      }
      case 'image':
        return [node.alt ?? ''];
      case 'html':
        return [node.value];
      default:
        return [];
    }
  });
}
