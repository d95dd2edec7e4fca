/**
 * The current request as code a developer runs unchanged once their key is in: curl, and plain fetch (Node 20+),
 * urllib (Python 3.9+) and java.net.http (Java 17), none of them needing a client library. The key is the
 * placeholder YOUR_API_KEY; the address is this server's.
 */
import type { BatchInput } from './batch';
import type { PlaygroundState } from './playground-state';
import { requestUrl } from './playground-state';
import { postBody } from './run-request';

export const KEY_PLACEHOLDER = 'YOUR_API_KEY';
export const SAMPLE_LANGUAGES = ['curl', 'JavaScript', 'Python', 'Java'] as const;
export type SampleLanguage = (typeof SAMPLE_LANGUAGES)[number];

export interface SampleRequest {
  method: PlaygroundState['method'];
  url: string;
  /** POST: the JSON body. */
  body: Record<string, unknown> | null;
  format: PlaygroundState['format'];
}

export function sampleRequest(state: PlaygroundState, origin: string, inputs: BatchInput[] = []): SampleRequest {
  return {
    method: state.method,
    url: `${origin}${requestUrl(state)}`,
    body: state.method === 'POST' ? postBody(state, inputs) : null,
    format: state.format,
  };
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const str = (s: string) => JSON.stringify(s);

function curl(r: SampleRequest): string {
  const lines = [`curl -sS ${shellQuote(r.url)}`, `  -H ${shellQuote(`Authorization: Bearer ${KEY_PLACEHOLDER}`)}`];
  if (r.method === 'POST') {
    lines.push(`  -H 'Content-Type: application/json'`, `  --data ${shellQuote(JSON.stringify(r.body))}`);
  }
  if (r.method === 'PUT') lines.push(`  -H 'Content-Type: text/csv'`, '  -T input.csv');
  return lines.join(' \\\n');
}

function javascript(r: SampleRequest): string {
  const head = r.method === 'PUT' ? "import { createReadStream } from 'node:fs';\n\n" : '';
  const headers = [`Authorization: 'Bearer ${KEY_PLACEHOLDER}'`];
  if (r.method === 'POST') headers.push(`'Content-Type': 'application/json'`);
  if (r.method === 'PUT') headers.push(`'Content-Type': 'text/csv'`);
  const options = [`  method: '${r.method}',`, `  headers: { ${headers.join(', ')} },`];
  if (r.method === 'POST')
    options.push(`  body: JSON.stringify(${JSON.stringify(r.body, null, 2).replace(/\n/g, '\n  ')}),`);
  if (r.method === 'PUT') options.push(`  body: createReadStream('input.csv'),`, `  duplex: 'half',`);
  const print =
    r.format === 'json' ? 'console.log(JSON.stringify(await res.json(), null, 2));' : 'console.log(await res.text());';
  return `${head}const res = await fetch(${str(r.url)}, {
${options.join('\n')}
});
if (!res.ok) throw new Error(\`\${res.status}: \${await res.text()}\`);
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

function python(r: SampleRequest): string {
  const headers = [`"Authorization": "Bearer ${KEY_PLACEHOLDER}"`];
  let data = '';
  let head = 'import urllib.request\n';
  if (r.method === 'POST') {
    head = `import json\nimport urllib.request\n\nbody = ${pythonLiteral(r.body)}\n`;
    headers.push('"Content-Type": "application/json"');
    data = '    data=json.dumps(body).encode(),\n';
  }
  if (r.method === 'PUT') {
    headers.push('"Content-Type": "text/csv"');
    data = '    data=open("input.csv", "rb").read(),\n';
  }
  const print = r.format === 'json' ? 'print(json.dumps(json.load(res), indent=2))' : 'print(res.read().decode())';
  if (r.format === 'json' && !head.includes('import json')) head = `import json\n${head}`;
  return `${head}
request = urllib.request.Request(
    ${str(r.url)},
    method="${r.method}",
${data}    headers={${headers.join(', ')}},
)
with urllib.request.urlopen(request) as res:
    ${print}
`;
}

function java(r: SampleRequest): string {
  const publisher =
    r.method === 'GET'
      ? '.GET()'
      : r.method === 'POST'
        ? `.POST(HttpRequest.BodyPublishers.ofString(${str(JSON.stringify(r.body))}))`
        : '.PUT(HttpRequest.BodyPublishers.ofFile(Path.of("input.csv")))';
  const type = r.method === 'POST' ? 'application/json' : r.method === 'PUT' ? 'text/csv' : null;
  return `import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;${r.method === 'PUT' ? '\nimport java.nio.file.Path;' : ''}

public class Lookup {
    public static void main(String[] args) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(${str(r.url)}))
            .header("Authorization", "Bearer ${KEY_PLACEHOLDER}")${type ? `\n            .header("Content-Type", "${type}")` : ''}
            ${publisher}
            .build();
        // HTTP/1.1: over plain http Java asks for an h2c upgrade, which the server refuses.
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 400) throw new RuntimeException(response.statusCode() + ": " + response.body());
        System.out.println(response.body());
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
