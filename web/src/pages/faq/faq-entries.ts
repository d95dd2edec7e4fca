/**
 * The FAQ's questions and answers (issue 18 item 1), true of this product as built: docs/lookups.md,
 * docs/api-keys.md, docs/scoring.md and decisions 0016, 0027 and 0029. Numbers and messages the code holds in
 * common/ are imported, never retyped. Answers use two marks: `code`, and [text](/path) for a link.
 */

import { PAYMENT_MESSAGES } from '@tessera/common/contracts';
import { KEY_ID_LENGTH, KEY_LIMITS, KEY_MESSAGES, KEY_SECRET_LENGTH } from '@tessera/common/keys';
import { LOOKUP_MESSAGES } from '@tessera/common/lookup-inputs';
import {
  IDEMPOTENCY,
  LOOKUP_ENDPOINT_NAMES,
  LOOKUP_LIMITS,
  METADATA_LIMITS,
  PII_MESSAGES,
  RATE_MESSAGES,
  RATE_WINDOW_MS,
} from '@tessera/common/lookups';
import { USAGE_ALERT_DEFAULTS } from '@tessera/common/usage-alerts';

export interface FaqEntry {
  /** The anchor: /faq#{id}. */
  id: string;
  question: string;
  answer: string;
}

export interface FaqTopic {
  id: string;
  title: string;
  entries: FaqEntry[];
}

const n = (value: number) => value.toLocaleString('en-US');
const minutes = (ms: number) => ms / 60_000;
const endpoints = LOOKUP_ENDPOINT_NAMES.map((name) => `\`${name}\``).join(', ');

export const FAQ: FaqTopic[] = [
  {
    id: 'inputs',
    title: 'Inputs and normalisation',
    entries: [
      {
        id: 'which-lookups',
        question: 'Which lookups are there, and what does each take?',
        answer: `Ten endpoints answer at \`/v2/identities/{endpoint}\`: ${endpoints}. Each takes its own key (an e-mail, a hash, a phone number, an IP address, an advertising id, a VIN or an identity id); \`byPii\` takes a name and an address, and \`byAny\` takes any of them together. Every endpoint also answers at \`/v1/identities/…\`, so clients of the original API switch by changing the base URL. The [API reference](/api) lists every input, and the [playground](/playground) lets you try them.`,
      },
      {
        id: 'normalisation',
        question: 'How are e-mail addresses, phone numbers and other keys normalised?',
        answer: `An e-mail address is trimmed, its spaces removed and lower-cased. A phone number is ten US digits in any punctuation (optionally after 1 or +1), or + with a country code and 8 to 15 digits; it is stored and compared as E.164 (\`+14155550123\`). IPv6 addresses are compared in their canonical form, advertising ids may be hyphenated or 32 bare hex digits, and a VIN must have 17 characters and a valid check digit. A malformed input answers 400 with \`fields\` naming each bad input and a message such as "${LOOKUP_MESSAGES.email}"; a well-formed input that nobody matches simply returns an empty \`identities\` list.`,
      },
      {
        id: 'pii-inputs',
        question: 'What does a name-and-address (PII) lookup need?',
        answer: `\`firstName\` and \`lastName\` ("${PII_MESSAGES.names}"), and somewhere to search: a \`zip\` (5 digits or zip+4), a two-letter \`state\`, or a street \`address\` starting with its house number, which is then searched nationwide. A city alone is not enough, because many states share city names. Each name, address or city may be at most ${n(LOOKUP_LIMITS.maxPiiLength)} characters. Nicknames (Bob for Robert), typos, swapped first and last names and street spellings (Street or St, North or N) are matched; see [how scores are computed](/scoring).`,
      },
    ],
  },
  {
    id: 'hashes',
    title: 'MD5 and SHA-256',
    entries: [
      {
        id: 'hash-email',
        question: 'How do I hash an e-mail address for byMd5 or bySha256?',
        answer: `Trim the address, make it lowercase, and send the hex digest of those bytes: 32 hex digits for \`md5\`, 64 for \`sha256\`, in either case. For example \`printf '%s' 'jane.doe@example.com' | sha256sum\`. A hash of the address as typed (with capitals or a trailing space) is a different hash and finds nobody. A hash of the wrong length answers 400: "${LOOKUP_MESSAGES.sha256}"`,
      },
      {
        id: 'hash-replies',
        question: 'Can I receive hashes instead of e-mail addresses?',
        answer:
          'Yes. In lookup replies every e-mail address carries its `md5` and `sha256`, and the system template 4, Hashed Emails Only, returns the id and the hashes of each address, never the address itself. Suppressed addresses are never found by their hashes either.',
      },
    ],
  },
  {
    id: 'scores',
    title: 'Scores and minScore',
    entries: [
      {
        id: 'score-meaning',
        question: 'What does the score of an identity mean?',
        answer:
          "Every identity carries a `score` from 0 to 100 and `matchedOn`, the inputs that agreed. For a name-and-address match the score is the match model's probability, in percent, that the candidate is the person you asked for (a Fellegi-Sunter model, explained on [Match Scores Explained](/scoring)). For exact keys it is the strength of the key (an e-mail 97, a mobile phone 95, an IP address 70), lowered for keys last seen years ago and split between people sharing the key. Results are ordered by score, best first.",
      },
      {
        id: 'min-score',
        question: 'What does minScore do, and what is the default?',
        answer: `\`minScore\` (0-100) keeps only identities scoring at least that much. Without it, every exact-key match is returned, and a name-and-address match only from a score of ${LOOKUP_LIMITS.piiMinScore}: the model must find it more likely than not. \`limit\` sets how many identities an input may return: ${LOOKUP_LIMITS.defaultLimit} by default, at most ${LOOKUP_LIMITS.maxLimit}.`,
      },
      {
        id: 'explain',
        question: 'How can I see why a match scored as it did?',
        answer:
          "Add `explain=true`. Each identity then carries `explain`: for a name and address, every field's agreement level (exact, alias, close, different or missing) and the bits it added to the match weight; for exact keys, each key's strength, when it was last seen, its recency factor and how many people share it. The [calculator on Match Scores Explained](/scoring#calculator) draws it for you.",
      },
      {
        id: 'score-100',
        question: 'Why do several identities score 100?',
        answer:
          'Scores are rounded to whole points, and many strong matches reach 100. Candidates are ranked by their unrounded match weight, so the first of them is still the best.',
      },
    ],
  },
  {
    id: 'templates',
    title: 'Templates',
    entries: [
      {
        id: 'templates-what',
        question: 'What is a template?',
        answer:
          'A [JSONata](https://jsonata.org) expression over the identity record; its output object becomes the fields of each identity. Five system templates are open to everyone: 1 Full (the default), 2 Compact Contacts, 3 Emails Only, 4 Hashed Emails Only and 5 Postal. Your organization can write its own on the [templates page](/templates); only its members may use them. Templates keep numbered versions, and a newly published version is used within about 2 seconds. Pass `template={id}` to choose one.',
      },
      {
        id: 'template-limits',
        question: 'What limits does a template run under?',
        answer:
          'Templates other than Full run in a separate sandbox: 500 ms per record, 10 s per request (or per 500 streamed rows), 64 MB of memory, 200 levels of nesting, 64 KB of output per identity and 8 MB per request. A template that fails or passes a limit answers 422 with `Template {id} ({name}, version {n}) failed: {reason}`, the reason naming the limit. The output must be an object of JSON values: functions and regular expressions are refused.',
      },
    ],
  },
  {
    id: 'batch',
    title: 'Batch and CSV',
    entries: [
      {
        id: 'batch-post',
        question: 'How do I look up many inputs at once?',
        answer: `POST \`{"inputs": [...]}\` with 1 to ${n(LOOKUP_LIMITS.maxInputs)} inputs; the results come back in the order given, each with its input echoed. An input may carry your own \`metadata\` (a flat object of at most ${n(METADATA_LIMITS.maxBytes)} bytes as JSON), echoed unchanged in its result and never searched, stored or charged. Send an \`Idempotency-Key\` header to make a retry safe: the reply is kept ${IDEMPOTENCY.keepHours} hours and a repeat is replayed, not run or charged again.`,
      },
      {
        id: 'csv-put',
        question: 'Can I upload a CSV file?',
        answer:
          'Yes: PUT a CSV body (`Content-Type: text/csv`, a header row naming the input columns, then one input per row). The reply streams back the same rows with the identity columns appended, any number of rows, and an `error` column explaining a bad row (`line 7: email: …`) without stopping the rest. Columns that are not inputs (your own ids, notes) are passed through unchanged, in their place. Send and read at the same time (`curl -T file.csv`); a client that uploads everything before reading stalls after a few megabytes, so split such uploads into POSTs or stream them. Add `format=csv` (or `Accept: text/csv`) to any GET or POST for a CSV reply.',
      },
      {
        id: 'formula-guard',
        question: 'Why do some cells of a CSV reply start with an apostrophe?',
        answer:
          "A spreadsheet runs a cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return as a formula, which a crafted value could use to run commands or leak data (CSV injection). Every such cell of a CSV reply, your own echoed columns included, gets a leading apostrophe (`'=HYPERLINK(…)`), which spreadsheets show as text. Signed numbers and phone numbers such as `+14155550123` are left as they are. A program reading the CSV should drop a leading apostrophe before one of those characters. JSON replies are never altered.",
      },
    ],
  },
  {
    id: 'limits',
    title: 'Rate limits and 429',
    entries: [
      {
        id: 'rate-limits',
        question: 'What rate limits apply, and what happens past them?',
        answer: `Two limits, each in requests a minute over a sliding ${minutes(RATE_WINDOW_MS)}-minute window: the API key's own \`rateLimit\`, and your organization's, set by its contract. Every limited call names them in \`RateLimit-Policy\` and the state of the tighter one in \`RateLimit\`. Past a limit the call answers 429 with a \`Retry-After\` header (seconds) and says which limit it was, e.g. "${RATE_MESSAGES.key(100, 18)}" A refused call is neither counted nor charged.`,
      },
      {
        id: 'retries',
        question: 'How should my program retry?',
        answer: `Wait for the \`Retry-After\` seconds of a 429 before sending again. A 503 means the call could not be recorded or the database was too slow; nothing was charged, and a retry is safe. With an \`Idempotency-Key\` a POST or PUT retried after a lost reply is answered from the kept reply (\`Idempotent-Replayed: true\`) instead of running twice. The [client libraries](/client) do all of this for you.`,
      },
    ],
  },
  {
    id: 'contracts',
    title: '402 and contracts',
    entries: [
      {
        id: 'payment-402',
        question: 'Why did a lookup answer 402 Payment Required?',
        answer: `Every lookup needs your organization to have a contract in force: active, started, not ended and below its monthly limit. Otherwise the call answers 402 with the reason, for instance "${PAYMENT_MESSAGES.none}" or, once the month's spend reaches the limit, "${PAYMENT_MESSAGES.limit(5000, '2026-12-01')}" Ask us to raise the limit or renew the contract through the [contact page](/contact).`,
      },
      {
        id: 'charges',
        question: 'What is charged, and how do I follow my spend?',
        answer: `Each successful lookup writes one usage row with its cost, priced by your contract per request, per identity returned and per identity holding a priced record group; failed calls, refused calls and idempotent replays cost nothing. The [usage page](/usage) charts requests, identities and cost. Your organization's administrators are warned on the console and by e-mail when the month's spend reaches ${USAGE_ALERT_DEFAULTS.thresholds.join(' % and ')} % of the monthly limit and when a day's requests pass ${USAGE_ALERT_DEFAULTS.spikeMultiple} times the average of the last week; they can change both on the organization page.`,
      },
    ],
  },
  {
    id: 'keys',
    title: 'Keys and signing',
    entries: [
      {
        id: 'make-key',
        question: 'How do I get an API key?',
        answer: `Sign in and make one on the [keys page](/keys/add). A key is a ${KEY_ID_LENGTH}-character id and a ${KEY_SECRET_LENGTH}-character secret; the secret is shown once, afterwards only its last four characters. Send it only in the \`Authorization\` header: a key in a URL or a cookie is refused with 400 ("${KEY_MESSAGES.inUrl}"). You can rotate a key, keeping the old secret valid for a grace of up to ${KEY_LIMITS.maxGraceSeconds / 86_400} days, and revoke it at once.`,
      },
      {
        id: 'key-forms',
        question: 'What are plain, signed and legacy keys?',
        answer: `Three ways to present a key. Plain: \`Bearer {keyId}{secret}\`. Signed: \`Bearer {keyId}{time}{signature}\`, the time in epoch milliseconds within ${minutes(KEY_LIMITS.signedSkewMs)} minutes of our clock and the signature the hex HMAC-SHA256 of the time keyed with the secret, so the secret itself never travels. Legacy, turned on per key, is the original API's form: the hex MD5 of time and secret, accepted while at most ${minutes(KEY_LIMITS.legacyMaxAgeMs)} minutes old.`,
      },
      {
        id: 'key-settings',
        question: 'Can I restrict what a key may do?',
        answer:
          'Yes. Each key may have an expiry date, an allow-list of IP addresses or CIDR ranges (a call from elsewhere answers 403), its own rate limit, and a subset of your record types (other types come back empty). Calls by key are charged to the key and its user, and every call appears on the usage page.',
      },
      {
        id: 'browser-calls',
        question: 'Can I call the API from a web page?',
        answer:
          'No, on purpose: the API sends no CORS headers, so browsers refuse cross-origin calls. A key in a web page is a key anyone can read; call the API from your own server.',
      },
    ],
  },
  {
    id: 'data',
    title: 'Data sources',
    entries: [
      {
        id: 'data-source',
        question: 'Where does the identity data come from?',
        answer:
          'In this deployment, from nowhere real: the identity data is a generated, synthetic graph of people, addresses, e-mail addresses, phones, devices and vehicles, made by our data generator from a fixed seed. No real person is in it; any likeness to one is chance. The precision and recall quoted on [Match Scores Explained](/scoring) were measured on such generated graphs.',
      },
      {
        id: 'record-types',
        question: 'Why are some record types empty in my replies?',
        answer:
          'A user (or key) limited to some record types receives only those; the others come back empty. The record types are set on each user, and a key may narrow them further. A template may also leave fields out.',
      },
    ],
  },
  {
    id: 'suppression',
    title: 'Suppression and opting out',
    entries: [
      {
        id: 'opt-out',
        question: 'How can a person opt out?',
        answer:
          'We suppress a person, an e-mail address (by the address or either of its hashes) or a phone number on request, and the suppression takes effect on the next lookup. There is no self-service opt-out page yet: write to us through the [contact page](/contact), saying what to suppress (the e-mail address, the phone number, or the name and address).',
      },
      {
        id: 'suppressed-look',
        question: 'What does a lookup return for a suppressed person?',
        answer:
          'Nothing: suppressed people, e-mail addresses and phone numbers are never found and never shown. A suppressed person looks exactly like an unknown one, so a reply cannot reveal that someone opted out.',
      },
    ],
  },
  {
    id: 'retention',
    title: 'Retention',
    entries: [
      {
        id: 'usage-retention',
        question: 'How long do you keep records of my calls?',
        answer: `One usage row per call is kept for 13 months by default (the server setting \`USAGE_RETENTION_MONTHS\`; 0 keeps every row). Older rows are deleted hourly, while the hourly and daily totals behind charts, reports and bills stay. A reply kept for an Idempotency-Key is kept ${IDEMPOTENCY.keepHours} hours.`,
      },
    ],
  },
];

/** Every entry with its topic, in page order. */
export const ALL_ENTRIES = FAQ.flatMap((topic) => topic.entries.map((entry) => ({ ...entry, topic: topic.title })));
