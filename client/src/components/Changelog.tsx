import { Typography } from '@mantine/core';
import Markdown, { type Components } from 'react-markdown';

/** Headings inside a version's card stay below its own title; links leave the portal in a new tab, without its window. */
const COMPONENTS: Components = {
  h1: 'h4',
  h2: 'h4',
  h3: 'h5',
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ),
};

/**
 * A version's changelog, written in Markdown by an admin. react-markdown builds React elements, never HTML strings:
 * raw HTML in the text shows as text, and a link or image address that is not http(s), mailto or relative is dropped.
 */
export function Changelog({ text, testId }: { text: string; testId?: string }) {
  return (
    <Typography fz="sm" style={{ overflowWrap: 'anywhere' }} data-testid={testId}>
      <Markdown components={COMPONENTS} skipHtml>
        {text}
      </Markdown>
    </Typography>
  );
}
