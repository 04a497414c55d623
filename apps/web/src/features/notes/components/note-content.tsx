import { Text, Title, Typography } from '@mantine/core';
import Markdown, { type Components } from 'react-markdown';

/**
 * What a note's formatting may become: paragraphs, lists, section headings, emphasis and quotes. Everything else
 * a note holds (HTML, links, images, code) is shown as the text it is or left out: a note is typed by people and
 * read by others, so nothing in it ever runs or loads (decision 027). react-markdown builds React elements; no
 * user text reaches `dangerouslySetInnerHTML`.
 */
const ALLOWED = ['p', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'em', 'blockquote', 'br', 'hr'];

/** Section headings sit under the note's own title (an h2 in the dialog). */
const COMPONENTS: Components = {
  h1: ({ children }) => (
    <Title order={3} size="h5">
      {children}
    </Title>
  ),
  h2: ({ children }) => (
    <Title order={3} size="h5">
      {children}
    </Title>
  ),
  h3: ({ children }) => (
    <Title order={4} size="h6">
      {children}
    </Title>
  ),
  h4: ({ children }) => (
    <Title order={4} size="h6">
      {children}
    </Title>
  ),
  h5: ({ children }) => (
    <Title order={5} size="h6">
      {children}
    </Title>
  ),
  h6: ({ children }) => (
    <Title order={5} size="h6">
      {children}
    </Title>
  ),
};

export function NoteContent({ content }: { content: string }) {
  return (
    <Typography fz="sm">
      <Markdown skipHtml allowedElements={ALLOWED} unwrapDisallowed components={COMPONENTS}>
        {content}
      </Markdown>
    </Typography>
  );
}

/** A card's preview: the first lines as plain text (section markers dropped), cut after three lines by CSS. */
export function NotePreview({ content }: { content: string }) {
  const text = content
    .split('\n')
    .map((line) => line.replace(/^\s*(#{1,6}|[-*+]|\d+\.)\s+/, ''))
    .filter((line) => line.trim())
    .join(' · ');
  return (
    <Text size="sm" lineClamp={3} c="dimmed">
      {text}
    </Text>
  );
}
