import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { forRapiDoc } from './renderer-examples';

/** RapiDoc 9.3.8's reading of a media type's or parameter's `example` (its `standardizeExample`), as it is. */
function rapiDocReads(ex: unknown): unknown {
  if (typeof ex === 'object' && ex !== null && !Array.isArray(ex)) {
    const record = ex as Record<string, { value?: unknown }>;
    if ((ex as { value?: unknown }).value !== undefined) return { Example: { ...ex } };
    const entries = Object.entries(record).filter(([, obj]) => obj.value !== undefined);
    return entries.length === 0 ? undefined : Object.fromEntries(entries);
  }
  return ex;
}

type MediaType = { example?: unknown; examples?: Record<string, { value: unknown }> };

describe('examples for RapiDoc (issue 32 item 7)', () => {
  it('moves an object example of a media type under examples, keeping its value whole', () => {
    const body = { name: 'Production', expiresAt: null, ipAllowlist: ['203.0.113.0/24'] };
    const doc = {
      paths: {
        '/v2/keys': { post: { requestBody: { content: { 'application/json': { schema: {}, example: body } } } } },
      },
    };
    const media = (forRapiDoc(doc) as typeof doc).paths['/v2/keys'].post.requestBody.content[
      'application/json'
    ] as MediaType;
    expect(media.example).toBeUndefined();
    expect(media.examples).toEqual({ Example: { value: body } });
    // What RapiDoc makes of it: the one example, whole, and no TypeError on the null.
    expect(rapiDocReads(media.examples)).toEqual({ Example: { value: body } });
    expect(() => rapiDocReads(body)).toThrow(TypeError);
  });

  it('leaves strings, arrays, schemas and existing examples maps alone', () => {
    const doc = {
      parameters: [{ name: 'id', in: 'path', schema: { type: 'string', example: { a: null } }, example: 'ak_1' }],
      content: {
        'text/csv': { schema: { type: 'string' }, example: 'a,b\n1,2' },
        'application/json': { schema: {}, example: { a: 1 }, examples: { One: { value: { a: 1 } } } },
      },
    };
    const out = forRapiDoc(doc) as typeof doc;
    expect(out.parameters[0]).toEqual(doc.parameters[0]);
    expect(out.content).toEqual(doc.content);
    expect(out).not.toBe(doc);
  });

  it('leaves no object example in the published document that RapiDoc would misread', () => {
    const published = JSON.parse(readFileSync(path.join(__dirname, '../../../../docs/openapi.json'), 'utf8'));
    const misread: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) {
        for (const [i, n] of node.entries()) walk(n, `${at}/${i}`);
      } else if (node && typeof node === 'object') {
        const record = node as Record<string, unknown>;
        const ex = record.example;
        if ('schema' in record && ex && typeof ex === 'object' && !Array.isArray(ex)) misread.push(at);
        for (const [k, v] of Object.entries(record)) if (k !== 'example' && k !== 'examples') walk(v, `${at}/${k}`);
      }
    };
    walk(published, '');
    expect(misread.length).toBeGreaterThan(0); // the document does have them: POST /v2/keys's body among them
    const before = misread.splice(0);
    walk(forRapiDoc(published), '');
    expect(misread, `was: ${before.slice(0, 3).join(', ')}`).toEqual([]);
  });
});
