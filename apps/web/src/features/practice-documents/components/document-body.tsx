import { Title, Typography } from '@mantine/core';
import Markdown, { type Components } from 'react-markdown';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';

/**
 * A practice document's Markdown (decision 066), as the PDF shows it: headings, paragraphs, emphasis, lists,
 * quotes, rules; links keep their words. Raw HTML is never rendered (`skipHtml`), and the tree goes through
 * `rehype-sanitize` (GitHub's schema, without images) as a second, kept wall: an administrator's text never runs or
 * loads anything in a patient's browser.
 */
const SCHEMA = { ...defaultSchema, tagNames: (defaultSchema.tagNames ?? []).filter((tag) => tag !== 'img') };

/** Headings sit under the document's own title (an h2 on the screen). */
const COMPONENTS: Components = {
  h1: ({ children }) => <Title order={3}>{children}</Title>,
  h2: ({ children }) => <Title order={3}>{children}</Title>,
  h3: ({ children }) => <Title order={4}>{children}</Title>,
  h4: ({ children }) => <Title order={5}>{children}</Title>,
  h5: ({ children }) => <Title order={6}>{children}</Title>,
  h6: ({ children }) => <Title order={6}>{children}</Title>,
  a: ({ children, href }) => (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  ),
};

export function DocumentBody({ markdown }: { markdown: string }) {
  return (
    <Typography fz="sm">
      <Markdown skipHtml rehypePlugins={[[rehypeSanitize, SCHEMA]]} components={COMPONENTS}>
        {markdown}
      </Markdown>
    </Typography>
  );
}
