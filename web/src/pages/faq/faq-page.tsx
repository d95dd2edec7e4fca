/**
 * Frequently Asked Questions (/faq, public; issue 18 item 1): answers grouped by topic, a search box that narrows
 * the questions as you type (spec §9 debounce) and says how many match in a live region, and an anchor for every
 * answer: /faq#{id} scrolls to it 72 px below the top (spec §2; the router does it in finishNavigation).
 */
import LinkIcon from '@mui/icons-material/Link';
import SearchIcon from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DEBOUNCE_MS, SCROLL_OFFSET_PX } from '@tessera/common/constants';
import { useEffect, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageHeading } from '../page-heading';
import { ALL_ENTRIES, FAQ, type FaqEntry } from './faq-entries';
import { countText, filterEntries, parts } from './faq-search';

/** `value`, once it has stopped changing for `delay` ms. */
export function useDebounced<T>(value: T, delay = DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

function Answer({ text }: { text: string }) {
  return (
    <Typography component="div" sx={{ overflowWrap: 'anywhere' }}>
      {parts(text).map((part, i) => {
        const key = `${i}-${part.kind}`;
        if (part.kind === 'code')
          return (
            <Box
              component="code"
              key={key}
              sx={{ fontFamily: 'monospace', fontSize: '0.9em', bgcolor: 'action.hover', px: 0.5, borderRadius: 0.5 }}
            >
              {part.text}
            </Box>
          );
        if (part.kind === 'link') {
          return part.href.startsWith('/') ? (
            <Link key={key} component={RouterLink} to={part.href} color="primary">
              {part.text}
            </Link>
          ) : (
            <Link key={key} href={part.href} target="_blank" rel="noopener noreferrer" color="primary">
              {part.text}
            </Link>
          );
        }
        return <span key={key}>{part.text}</span>;
      })}
    </Typography>
  );
}

function Entry({ entry }: { entry: FaqEntry }) {
  return (
    <Box
      component="article"
      id={entry.id}
      data-testid="faq-entry"
      aria-labelledby={`${entry.id}-q`}
      sx={{ mb: 3, scrollMarginTop: `${SCROLL_OFFSET_PX}px` }}
    >
      <Typography
        variant="h6"
        component="h3"
        id={`${entry.id}-q`}
        sx={{ fontSize: '1.1rem', fontWeight: 600, mb: 0.5 }}
      >
        {entry.question}
      </Typography>
      <Answer text={entry.answer} />
      <Link
        component={RouterLink}
        to={`#${entry.id}`}
        color="primary"
        variant="body2"
        data-testid="faq-permalink"
        aria-label={`Link to this answer: ${entry.question}`}
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mt: 0.5 }}
      >
        <LinkIcon fontSize="small" aria-hidden="true" />
        Link to this answer
      </Link>
    </Box>
  );
}

export default function FaqPage() {
  const [query, setQuery] = useState('');
  const settled = useDebounced(query);
  const shown = useMemo(() => new Set(filterEntries(ALL_ENTRIES, settled).map((e) => e.id)), [settled]);
  return (
    <Box sx={{ maxWidth: 860 }}>
      <PageHeading>Frequently Asked Questions</PageHeading>
      <Typography sx={{ mb: 2 }}>
        Answers about lookups, scores, templates, limits, billing, keys, our data and your privacy. Not answered here?{' '}
        <Link component={RouterLink} to="/contact" color="primary">
          Contact us
        </Link>
        .
      </Typography>
      <Box role="search" sx={{ mb: 1 }}>
        <TextField
          label="Search the questions"
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          fullWidth
          slotProps={{
            htmlInput: { 'data-testid': 'faq-search', 'aria-describedby': 'faq-count' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon aria-hidden="true" />
                </InputAdornment>
              ),
            },
          }}
        />
      </Box>
      <Typography
        id="faq-count"
        role="status"
        aria-live="polite"
        data-testid="faq-count"
        variant="body2"
        sx={{ mb: 2 }}
      >
        {countText(shown.size, ALL_ENTRIES.length, settled)}
      </Typography>
      {FAQ.map((topic) => {
        const entries = topic.entries.filter((e) => shown.has(e.id));
        if (entries.length === 0) return null;
        return (
          <Box component="section" key={topic.id} aria-labelledby={`topic-${topic.id}`} sx={{ mb: 2 }}>
            <Typography
              variant="h5"
              component="h2"
              id={`topic-${topic.id}`}
              sx={{
                mb: 1.5,
                pb: 0.5,
                borderBottom: 1,
                borderColor: 'divider',
                scrollMarginTop: `${SCROLL_OFFSET_PX}px`,
              }}
            >
              {topic.title}
            </Typography>
            {entries.map((entry) => (
              <Entry key={entry.id} entry={entry} />
            ))}
          </Box>
        );
      })}
    </Box>
  );
}
