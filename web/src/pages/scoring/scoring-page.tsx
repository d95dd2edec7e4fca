/**
 * Match Scores Explained (/scoring, public; issue 18 item 2): the Fellegi-Sunter model the lookups use, read from
 * the engine's own fitted-model.json (scoring-model.ts), how its weights become a score from 0 to 100, what the
 * ranges mean, the quality measured on held-out generated graphs, and a calculator drawing a real reply.
 */
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { SCROLL_OFFSET_PX } from '@tessera/common/constants';
import { LOOKUP_LIMITS } from '@tessera/common/lookups';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageHeading } from '../page-heading';
import Calculator from './calculator';
import { bitsOf, EVALUATION, FIELD_LABELS, FIELDS, FITTED_ON, LEVEL_RULES, LEVELS, MODEL } from './scoring-model';
import { priorBits, scoreOf } from './waterfall';

const n = (value: number) => value.toLocaleString('en-US');
const fixed = (value: number, digits = 2) => value.toFixed(digits);

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Box
      component="section"
      aria-labelledby={`${id}-title`}
      id={id}
      sx={{ mb: 4, scrollMarginTop: `${SCROLL_OFFSET_PX}px` }}
    >
      <Typography
        variant="h5"
        component="h2"
        id={`${id}-title`}
        sx={{ mb: 1.5, pb: 0.5, borderBottom: 1, borderColor: 'divider' }}
      >
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** A table that may scroll sideways on its own on a narrow screen (the page never does). */
function Scroller({ label, children }: { label: string; children: ReactNode }) {
  return (
    // A scrolling region must be reachable by keyboard (WCAG 2.1.1).
    <Box role="region" aria-label={label} tabIndex={0} sx={{ overflowX: 'auto', mb: 2, maxWidth: '100%' }}>
      {children}
    </Box>
  );
}

const P = ({ children }: { children: ReactNode }) => <Typography sx={{ mb: 1.5 }}>{children}</Typography>;

const WEIGHT_EXAMPLES = [-6, -3, -1, 0, 1, 3, 6, 9];

export default function ScoringPage() {
  const prior = priorBits(MODEL.prior);
  const fitted = EVALUATION.fitted;
  const before = EVALUATION.default;
  return (
    <Box sx={{ maxWidth: 960 }}>
      <PageHeading>Match Scores Explained</PageHeading>
      <P>
        Every identity a lookup returns carries a <code>score</code> from 0 to 100. This page explains how the score of
        a name-and-address match (<code>byPii</code>, or <code>byAny</code> with a name and address) is reached, with
        the very model the lookups use, and lets you{' '}
        <Link href="#calculator" color="primary">
          try it
        </Link>
        . Lookups by an exact key (e-mail, hash, phone, IP, device, VIN or id) score by the key's strength, how recently
        it was seen and how many people share it; see the{' '}
        <Link component={RouterLink} to="/faq#score-meaning" color="primary">
          FAQ
        </Link>
        .
      </P>

      <Section id="fields" title="Fields and agreement levels">
        <P>
          The query and each candidate person are compared field by field. Each comparison lands in one agreement level.
          A field empty on either side is <em>missing</em> and counts for nothing either way. For every field and level
          the model holds two probabilities: <strong>m</strong>, how often that level occurs when query and candidate
          are the same person, and <strong>u</strong>, how often when they are not. The level adds log2(m / u) bits of
          evidence: agreeing on something strangers rarely share adds many bits, disagreeing takes bits away.
        </P>
        <Scroller label="Agreement levels, m and u of each field">
          <Table
            size="small"
            aria-label="Agreement levels with their m and u probabilities and bits"
            data-testid="model-table"
          >
            <TableHead>
              <TableRow>
                <TableCell component="th" scope="col">
                  Field
                </TableCell>
                <TableCell component="th" scope="col">
                  Level
                </TableCell>
                <TableCell component="th" scope="col">
                  When
                </TableCell>
                <TableCell component="th" scope="col" align="right">
                  m
                </TableCell>
                <TableCell component="th" scope="col" align="right">
                  u
                </TableCell>
                <TableCell component="th" scope="col" align="right">
                  Bits
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {FIELDS.flatMap((field) =>
                LEVELS.filter((level) => LEVEL_RULES[field][level] !== null).map((level, i) => (
                  <TableRow key={`${field}-${level}`}>
                    {i === 0 ? (
                      <TableCell component="th" scope="row" sx={{ fontWeight: 600 }}>
                        {FIELD_LABELS[field]}
                      </TableCell>
                    ) : (
                      <TableCell aria-hidden="true" />
                    )}
                    <TableCell>{level}</TableCell>
                    <TableCell sx={{ minWidth: 180 }}>{LEVEL_RULES[field][level]}</TableCell>
                    <TableCell align="right">{MODEL.m[field][level]}</TableCell>
                    <TableCell align="right">{MODEL.u[field][level]}</TableCell>
                    <TableCell align="right">{fixed(bitsOf(field, level))}</TableCell>
                  </TableRow>
                )),
              )}
            </TableBody>
          </Table>
        </Scroller>
        <P>
          u is measured among the candidates the search lets through (namesakes, neighbours, people with a
          similar-sounding name), which is where the model has to tell people apart. So agreeing on a last name, which
          most of those candidates share, adds little, and a rare level can weigh more than an exact one: among the
          candidates, a city spelt nearly but not quite the same is rarely a stranger's.
        </P>
        <P>
          Names know nicknames and typos; streets are compared in USPS form with the unit set apart; a candidate is
          compared at every address they are known at, current and previous, and keeps the best. If the first and last
          names only fit the other way round (a common slip), the match is scored swapped, one bit lower.
        </P>
      </Section>

      <Section id="weights" title="From weights to a score from 0 to 100">
        <P>
          The match weight W starts from the prior odds that a candidate found by the search is the person sought: a
          prior of {MODEL.prior}, or {fixed(prior)} bits. Each field's bits are added to it. The weight becomes a
          probability p = 1 / (1 + 2<sup>−W</sup>), and the score is round(100 × p). A weight of 0 is even odds, a score
          of 50; every further bit doubles the odds.
        </P>
        <Scroller label="Weights and the scores they give">
          <Table size="small" aria-label="Match weights and the scores they give" sx={{ maxWidth: 420 }}>
            <TableHead>
              <TableRow>
                <TableCell component="th" scope="col" align="right">
                  Weight W (bits)
                </TableCell>
                <TableCell component="th" scope="col" align="right">
                  Score
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {WEIGHT_EXAMPLES.map((w) => (
                <TableRow key={w}>
                  <TableCell align="right">{w}</TableCell>
                  <TableCell align="right">{Math.round(scoreOf(w))}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Scroller>
        <P>
          Candidates are ranked by W, not by the rounded score: many strong matches round to 100, and the first of them
          is still the best.
        </P>
      </Section>

      <Section id="ranges" title="What each range means">
        <Box component="ul" sx={{ mt: 0, pl: 3, '& li': { mb: 1 } }}>
          <li>
            <strong>0–{LOOKUP_LIMITS.piiMinScore - 1}</strong>: the model finds it more likely that this is someone
            else. Not returned unless you lower <code>minScore</code>.
          </li>
          <li>
            <strong>{LOOKUP_LIMITS.piiMinScore}–79</strong>: more likely than not the person, with doubt left: typically
            a name that fits and a place that only partly does, or the reverse. Returned by default (the default minimum
            is {LOOKUP_LIMITS.piiMinScore}); check other evidence before acting on it.
          </li>
          <li>
            <strong>80–94</strong>: strong evidence: most fields agree, or a rare one (a full first name at the street
            address) does.
          </li>
          <li>
            <strong>95–100</strong>: the model is at least 95 % sure: name and address agree, or nearly so.
          </li>
        </Box>
        <P>
          A score is the model's probability in percent, so a score of s means about s in 100 such matches are the
          person sought. Set <code>minScore</code> higher when a wrong answer costs more than a missing one.
        </P>
      </Section>

      <Section id="quality" title="How well it works">
        <P>
          The model's m and u were fitted on a generated graph of {n(FITTED_ON.identities)} people (seed{' '}
          {FITTED_ON.seed}, {n(FITTED_ON.piiQueries)} labelled name-and-address queries), each pulled toward typical
          values so the generator's few kinds of noise do not make it overconfident. It was then measured through the
          lookup engine on a graph of another seed ({EVALUATION.seed}, {n(EVALUATION.piiQueries)} queries, some of them
          for people who are not there), never seen in fitting, taking the top result at the default minimum score of{' '}
          {LOOKUP_LIMITS.piiMinScore}. Source: <code>docs/scoring.md</code> and the evaluation recorded in the fitted
          model.
        </P>
        <Scroller label="Precision and recall">
          <Table size="small" aria-label="Precision and recall on the held-out graph" data-testid="quality-table">
            <TableHead>
              <TableRow>
                <TableCell component="th" scope="col">
                  Model
                </TableCell>
                <TableCell component="th" scope="col" align="right">
                  Precision
                </TableCell>
                <TableCell component="th" scope="col" align="right">
                  Recall
                </TableCell>
                <TableCell component="th" scope="col" align="right">
                  Right
                </TableCell>
                <TableCell component="th" scope="col" align="right">
                  Wrong person
                </TableCell>
                <TableCell component="th" scope="col" align="right">
                  Absent people answered
                </TableCell>
                <TableCell component="th" scope="col" align="right">
                  Missed
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {[
                { name: 'Typical starting values', r: before },
                { name: 'Fitted (used by the lookups)', r: fitted },
              ].map(({ name, r }) => (
                <TableRow key={name}>
                  <TableCell component="th" scope="row">
                    {name}
                  </TableCell>
                  <TableCell align="right">{r.precision}</TableCell>
                  <TableCell align="right">{r.recall}</TableCell>
                  <TableCell align="right">{n(r.right)}</TableCell>
                  <TableCell align="right">{n(r.wrong)}</TableCell>
                  <TableCell align="right">{n(r.falseAlarm)}</TableCell>
                  <TableCell align="right">{n(r.missed)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Scroller>
        <P>
          The fitted model trades a little recall for far fewer wrong answers. On 1,000,000 generated people through the
          full engine on PostgreSQL (decision 0027, <code>docs/decisions/0027-nationwide-pii.md</code>), queries with a
          zip or state scored precision 0.9949 and recall 0.9730 (11,614 queries), and queries with only a street
          address, searched nationwide, 0.9937 and 0.9678 (6,654 queries). All these figures come from generated data:
          the identity data of this deployment is a synthetic graph, not real people.
        </P>
      </Section>

      <Section id="calculator" title="Try it: the score calculator">
        <Calculator />
      </Section>
    </Box>
  );
}
