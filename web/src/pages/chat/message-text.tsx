/**
 * A chat message as plain text, its web addresses and e-mail addresses made links by linkifyjs (linkify-react):
 * the text is never read as HTML, and only http(s) and mailto links are made.
 */
import Link from '@mui/material/Link';
import Linkify from 'linkify-react';
import type { Opts } from 'linkifyjs';

const OPTIONS: Opts = {
  defaultProtocol: 'https',
  target: { url: '_blank' },
  rel: 'noopener noreferrer nofollow',
  validate: { url: (value: string) => /^https?:\/\//i.test(value) || !/^[a-z][a-z0-9+.-]*:/i.test(value) },
  render: ({ attributes, content }) => {
    const { href, ...rest } = attributes as { href: string } & Record<string, string>;
    return (
      <Link
        href={href}
        {...rest}
        sx={{ color: 'inherit', textDecorationColor: 'currentColor', overflowWrap: 'anywhere' }}
      >
        {content}
      </Link>
    );
  },
};

export function MessageText({ text }: { text: string }) {
  return <Linkify options={OPTIONS}>{text}</Linkify>;
}
