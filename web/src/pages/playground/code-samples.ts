/**
 * The current request as code a developer runs unchanged once their key is in: curl, and the client libraries
 * (clients/, installed from the Client Libraries page): @tessera/client for JavaScript (Node 20+), tessera-client
 * for Python (3.9+) and tessera-client.jar for Java (17). The key is the placeholder YOUR_API_KEY; the address is
 * this server's.
 */
import type { LookupEndpoint } from '@tessera/common/lookups';
import type { BatchInput } from './batch';
import type { PlaygroundState } from './playground-state';
import { optionsOf, requestUrl } from './playground-state';
import { postBody } from './run-request';

export const KEY_PLACEHOLDER = 'YOUR_API_KEY';
/** What follows a chosen key's id: its secret is shown only once, so the developer pastes it from where they keep it. */
export const SECRET_PLACEHOLDER = 'YOUR_SECRET';
const keyOf = (r: { apiKey?: string }) => r.apiKey ?? KEY_PLACEHOLDER;
export const SAMPLE_LANGUAGES = ['curl', 'JavaScript', 'Python', 'Java'] as const;
export type SampleLanguage = (typeof SAMPLE_LANGUAGES)[number];

/** An option's value as the clients take it: numbers as numbers, explain as a boolean. */
type OptionValue = string | number | boolean;

export interface SampleRequest {
  method: PlaygroundState['method'];
  endpoint: LookupEndpoint;
  origin: string;
  url: string;
  /** GET: the named inputs given. */
  input: Record<string, string>;
  /** POST: the batch's inputs. */
  inputs: BatchInput[];
  /** POST: the JSON body (inputs and options). */
  body: Record<string, unknown> | null;
  /** The options other than format, as typed values. */
  options: Record<string, OptionValue>;
  format: PlaygroundState['format'];
  /** What the code presents as the key: YOUR_API_KEY, or one of the user's key ids followed by YOUR_SECRET. */
  apiKey?: string;
}

export function sampleRequest(state: PlaygroundState, origin: string, inputs: BatchInput[] = []): SampleRequest {
  const options: Record<string, OptionValue> = {};
  for (const [k, v] of Object.entries(optionsOf(state))) {
    if (k === 'format') continue;
    options[k] = k === 'explain' ? v === 'true' : Number(v);
  }
  const input: Record<string, string> = {};
  for (const [k, v] of Object.entries(state.inputs)) if (v?.trim()) input[k] = v.trim();
  return {
    method: state.method,
    endpoint: state.endpoint,
    origin,
    url: `${origin}${requestUrl(state)}`,
    input,
    inputs,
    body: state.method === 'POST' ? postBody(state, inputs) : null,
    options,
    format: state.format,
  };
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const str = (s: string) => JSON.stringify(s);

function curl(r: SampleRequest): string {
  const lines = [`curl -sS ${shellQuote(r.url)}`, `  -H ${shellQuote(`Authorization: Bearer ${keyOf(r)}`)}`];
  if (r.method === 'POST') {
    lines.push(`  -H 'Content-Type: application/json'`, `  --data ${shellQuote(JSON.stringify(r.body))}`);
  }
  if (r.method === 'PUT') lines.push(`  -H 'Content-Type: text/csv'`, '  -T input.csv');
  return lines.join(' \\\n');
}

/** A flat object as JavaScript source: `{ id: "7", minScore: 50 }`. */
function jsObject(value: Record<string, unknown>): string {
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
  return `{ ${entries.map(([k, v]) => `${key(k)}: ${JSON.stringify(v)}`).join(', ')} }`;
}

/** The JavaScript client's options argument: the typed options, and format csv when asked. */
function jsOptions(r: SampleRequest): string {
  const all: Record<string, OptionValue> = { ...r.options, ...(r.format === 'csv' ? { format: 'csv' } : {}) };
  return Object.keys(all).length ? `, ${jsObject(all)}` : '';
}

function javascript(r: SampleRequest): string {
  const imports = [`import { TesseraClient } from '@tessera/client';`];
  if (r.method === 'PUT') imports.push(`import { csvFile } from '@tessera/client/node';`);
  const call =
    r.method === 'GET'
      ? `client.lookup(${str(r.endpoint)}, ${jsObject(r.input)}${jsOptions(r)})`
      : r.method === 'POST'
        ? `client.batch(${str(r.endpoint)}, [${r.inputs.map((i) => (typeof i === 'string' ? str(i) : jsObject(i))).join(', ')}]${jsOptions(r)})`
        : `client.uploadCsv(${str(r.endpoint)}, csvFile('input.csv')${jsOptions({ ...r, format: 'json' })})`;
  const csv = r.method === 'PUT' || r.format === 'csv';
  const print = csv ? 'console.log(await reply.text());' : 'console.log(JSON.stringify(reply, null, 2));';
  return `${imports.join('\n')}

const client = new TesseraClient({ baseUrl: ${str(r.origin)}, apiKey: '${keyOf(r)}' });
const reply = await ${call};
${print}
`;
}

/** A JSON value as a Python literal. */
export function pythonLiteral(value: unknown, indent = ''): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number' || typeof value === 'string') return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${inner}${pythonLiteral(v, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pythonLiteral(v, inner)},`).join('\n')}\n${indent}}`;
}

/** The Python client's keyword arguments. */
function pyOptions(r: SampleRequest, withFormat = true): string {
  const names: Record<string, string> = {
    template: 'template',
    minScore: 'min_score',
    limit: 'limit',
    explain: 'explain',
  };
  const args = Object.entries(r.options).map(([k, v]) => `${names[k] ?? k}=${pythonLiteral(v)}`);
  if (withFormat && r.format === 'csv') args.push('format="csv"');
  return args.map((a) => `, ${a}`).join('');
}

/** The endpoint's attribute on the Python client: byEmail → by_email. */
const pyEndpoint = (endpoint: string) => endpoint.replace(/^by/, 'by_').toLowerCase();

function python(r: SampleRequest): string {
  const target = `client.${pyEndpoint(r.endpoint)}`;
  const call =
    r.method === 'GET'
      ? `${target}.get(${pythonLiteral(r.input)}${pyOptions(r)})`
      : r.method === 'POST'
        ? `${target}.batch(${pythonLiteral(r.inputs)}${pyOptions(r)})`
        : `${target}.upload("input.csv"${pyOptions(r, false)})`;
  const csv = r.method === 'PUT' || r.format === 'csv';
  const print = csv ? 'print(reply.text())' : 'print(json.dumps(reply, indent=2))';
  return `${csv ? '' : 'import json\n\n'}from tessera import Tessera

client = Tessera(${str(r.origin)}, "${keyOf(r)}")
reply = ${call}
${print}
`;
}

/** The Java client's options, built up from LookupOptions.defaults(). */
function javaOptions(r: SampleRequest): string {
  const calls = Object.entries(r.options).map(([k, v]) => `.${k}(${typeof v === 'string' ? str(v) : String(v)})`);
  return `LookupOptions.defaults()${calls.join('')}`;
}

const javaEndpoint = (endpoint: string) => `Endpoint.${endpoint.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`;

/** A named input: LookupInput.named(Map.of("firstName", "Ann", ...)), or a plain key for a single string. */
function javaInput(input: BatchInput): string {
  if (typeof input === 'string') return `LookupInput.plain(${str(input)})`;
  const pairs = Object.entries(input).flatMap(([k, v]) => [str(k), str(v ?? '')]);
  return `LookupInput.named(Map.of(${pairs.join(', ')}))`;
}

function java(r: SampleRequest): string {
  const endpoint = javaEndpoint(r.endpoint);
  const options = javaOptions(r);
  const csv = r.method === 'PUT' || r.format === 'csv';
  let call: string;
  if (r.method === 'GET') {
    call = csv
      ? `CsvReply reply = client.lookupCsv(${endpoint}, ${javaInput(r.input)}, ${options});\n        System.out.println(reply.text());`
      : `LookupResult reply = client.lookup(${endpoint}, ${javaInput(r.input)}, ${options});\n        System.out.println(Json.pretty(reply));`;
  } else if (r.method === 'POST') {
    const inputs = `List.of(${r.inputs.map(javaInput).join(', ')})`;
    call = csv
      ? `CsvReply reply = client.batchCsv(${endpoint}, ${inputs}, ${options});\n        System.out.println(reply.text());`
      : `BatchResult reply = client.batch(${endpoint}, ${inputs}, ${options});\n        System.out.println(Json.pretty(reply));`;
  } else {
    call = `CsvReply reply = client.upload(${endpoint}, Path.of("input.csv"), ${options});\n        System.out.println(reply.text());`;
  }
  return `import com.tessera.client.*;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

public class Lookup {
    public static void main(String[] args) throws Exception {
        TesseraClient client = TesseraClient.builder()
            .baseUrl(${str(r.origin)})
            .apiKey("${keyOf(r)}")
            .build();
        ${call}
    }
}
`;
}

export function sampleCode(language: SampleLanguage, r: SampleRequest): string {
  if (language === 'curl') return curl(r);
  if (language === 'JavaScript') return javascript(r);
  if (language === 'Python') return python(r);
  return java(r);
}
