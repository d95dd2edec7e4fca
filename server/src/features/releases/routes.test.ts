/**
 * /v2/releases by outcome and rank (issue 21): root cuts a draft from a commit of this repository (its artifact
 * built by `git archive`, with size and SHA-256), edits, publishes and deletes drafts; a published release is
 * immutable (409); bad versions, commits and notes are 400s naming the field; admin and super get 403.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RELEASE_MESSAGES } from '@tessera/common/deployments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config';
import { auditedOf } from '../../test/audit-trail';
import { consoleClient } from '../../test/console-client';
import { buildTestApp, makeUser, signIn, type TestApp } from '../../test/harness';

let t: TestApp;
const api = consoleClient(() => t.app);
let root: string;
let releasesDir: string;
const HEAD = execFileSync('git', ['-C', REPO_ROOT, 'rev-parse', 'HEAD']).toString().trim();
const fresh = () =>
  `1.${Math.floor(Math.random() * 1e6)}.${Math.floor(Math.random() * 1e6)}-t${randomUUID().slice(0, 6)}`;

beforeAll(async () => {
  releasesDir = mkdtempSync(path.join(tmpdir(), 'tessera-releases-'));
  t = await buildTestApp({ env: { RELEASES_DIR: releasesDir } });
  root = await signIn(t.app, (await makeUser(t.database, 'root')).email);
});
afterAll(async () => {
  await t.app.close();
});

async function cut(over: Record<string, unknown> = {}) {
  const res = await api.post('/v2/releases', root, { version: fresh(), commit: HEAD, notes: '# Notes', ...over });
  expect(res.statusCode).toBe(201);
  return Object.values(res.json().releases)[0] as Record<string, unknown> & { id: number; artifact: string };
}

describe('POST /v2/releases', () => {
  it('201: a draft with an artifact built from the commit, its size and SHA-256 true to the file', async () => {
    const version = fresh();
    const res = await api.post('/v2/releases', root, { version, commit: HEAD.slice(0, 10), notes: '**bold**' });
    expect(res.statusCode).toBe(201);
    const release = Object.values(res.json().releases)[0] as Record<string, string | number>;
    expect(release).toMatchObject({ version, commit: HEAD, status: 'draft', publishedAt: null });
    const file = readFileSync(path.join(releasesDir, String(release.artifact)));
    expect(release.artifactSize).toBe(file.length);
    expect(release.artifactSha256).toBe(createHash('sha256').update(file).digest('hex'));
    // The documented command gives the same tree: the archive lists this repository's files at the commit.
    const listing = execFileSync('tar', ['-tzf', path.join(releasesDir, String(release.artifact))]).toString();
    expect(listing.split('\n')).toContain('package.json');
  });

  it('400: a version that is not semver, a commit that is not hex or not in the repository, notes too long', async () => {
    for (const [body, path, message] of [
      [{ version: 'v1.2', commit: HEAD }, 'body.version', RELEASE_MESSAGES.version],
      [{ version: fresh(), commit: '--output=/tmp/x' }, 'body.commit', RELEASE_MESSAGES.commit],
      [{ version: fresh(), commit: 'f'.repeat(40) }, 'body.commit', RELEASE_MESSAGES.commitMissing],
      [{ version: fresh(), commit: HEAD, notes: 'x'.repeat(20_001) }, 'body.notes', RELEASE_MESSAGES.notes],
    ] as const) {
      const res = await api.post('/v2/releases', root, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.json().fields).toContainEqual({ path, message });
    }
  });

  it('409: a version already cut', async () => {
    const release = await cut();
    const res = await api.post('/v2/releases', root, { version: release.version, commit: HEAD });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(RELEASE_MESSAGES.versionTaken);
  });
});

describe('GET /v2/releases', () => {
  it('200: the list, one release, or a comma-separated list; notes rendered as safe HTML', async () => {
    const a = await cut({
      notes:
        '## Fixed\n\n- <script>alert(1)</script>item <a href="javascript:alert(1)" onclick="x()">a</a>\n\nSee [ok](https://example.com).',
    });
    const b = await cut();
    expect(Object.keys((await api.get('/v2/releases', root)).json().releases)).toEqual(
      expect.arrayContaining([String(a.id), String(b.id)]),
    );
    const both = (await api.get(`/v2/releases/${a.id},${b.id}`, root)).json().releases;
    expect(Object.keys(both).sort()).toEqual([String(a.id), String(b.id)].sort());
    const html = both[a.id].notesHtml as string;
    expect(html).toContain('<h2>Fixed</h2>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('onclick');
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer">ok</a>');
  });

  it('404: an id that does not exist, alone or in a list', async () => {
    const a = await cut();
    expect((await api.get('/v2/releases/2147483000', root)).statusCode).toBe(404);
    expect((await api.get(`/v2/releases/${a.id},2147483000`, root)).statusCode).toBe(404);
  });

  it('400: an id list that is not numbers', async () => {
    expect((await api.get('/v2/releases/1,x', root)).statusCode).toBe(400);
  });
});

describe('PUT /v2/releases/{id}', () => {
  it('200: a draft takes new notes and version; a new commit rebuilds its artifact', async () => {
    const draft = await cut();
    const older = execFileSync('git', ['-C', REPO_ROOT, 'rev-list', '--max-count=1', '--skip=1', 'HEAD'])
      .toString()
      .trim();
    const version = fresh();
    const res = await api.put(`/v2/releases/${draft.id}`, root, { notes: 'Changed', version, commit: older });
    expect(res.statusCode).toBe(200);
    const updated = res.json().releases[draft.id];
    expect(updated).toMatchObject({ notes: 'Changed', version, commit: older });
    expect(updated.artifact).not.toBe(draft.artifact);
    expect(existsSync(path.join(releasesDir, draft.artifact))).toBe(false);
    expect(existsSync(path.join(releasesDir, updated.artifact))).toBe(true);
  });

  it('409: a published release cannot be edited; 404: none such; 400: an unknown field', async () => {
    const draft = await cut();
    expect((await api.post(`/v2/releases/${draft.id}/publish`, root, {})).statusCode).toBe(200);
    const res = await api.put(`/v2/releases/${draft.id}`, root, { notes: 'late' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(RELEASE_MESSAGES.published);
    expect((await api.put('/v2/releases/2147483000', root, { notes: 'x' })).statusCode).toBe(404);
    expect((await api.put(`/v2/releases/${draft.id}`, root, { status: 'draft' })).statusCode).toBe(400);
  });
});

describe('POST /v2/releases/{id}/publish', () => {
  it('200 once, then 409; 404 for none such', async () => {
    const draft = await cut();
    const res = await api.post(`/v2/releases/${draft.id}/publish`, root, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().releases[draft.id]).toMatchObject({ status: 'published' });
    expect(res.json().releases[draft.id].publishedAt).not.toBeNull();
    expect((await api.post(`/v2/releases/${draft.id}/publish`, root, {})).statusCode).toBe(409);
    expect((await api.post('/v2/releases/2147483000/publish', root, {})).statusCode).toBe(404);
  });
  it('publishes a comma-separated list together, or none of it when one is not a draft', async () => {
    const a = await cut();
    const b = await cut();
    const c = await cut();
    const both = await api.post(`/v2/releases/${a.id},${b.id}/publish`, root, {});
    expect(both.statusCode).toBe(200);
    expect(Object.keys(both.json().releases).sort()).toEqual([String(a.id), String(b.id)].sort());
    expect(both.json().releases[b.id]).toMatchObject({ status: 'published' });
    const mixed = await api.post(`/v2/releases/${c.id},${a.id}/publish`, root, {});
    expect(mixed.statusCode).toBe(409);
    expect(mixed.json().error).toBe(RELEASE_MESSAGES.published);
    expect((await api.get(`/v2/releases/${c.id}`, root)).json().releases[c.id].status).toBe('draft');
    expect((await api.post(`/v2/releases/${c.id},2147483000/publish`, root, {})).statusCode).toBe(404);
    expect((await api.get(`/v2/releases/${c.id}`, root)).json().releases[c.id].status).toBe('draft');
    expect((await api.post(`/v2/releases/${c.id},x/publish`, root, {})).statusCode).toBe(400);
  });
});

describe('DELETE /v2/releases/{ids}', () => {
  it('200: drafts go with their artifacts, several at once', async () => {
    const a = await cut();
    const b = await cut();
    const res = await api.del(`/v2/releases/${a.id},${b.id}`, root);
    expect(res.statusCode).toBe(200);
    expect(res.json().releases[a.id].deletedAt).toBeTruthy();
    expect(existsSync(path.join(releasesDir, a.artifact))).toBe(false);
    expect((await api.get(`/v2/releases/${b.id}`, root)).statusCode).toBe(404);
  });

  it('409: a list holding a published release deletes nothing', async () => {
    const draft = await cut();
    const published = await cut();
    await api.post(`/v2/releases/${published.id}/publish`, root, {});
    const res = await api.del(`/v2/releases/${draft.id},${published.id}`, root);
    expect(res.statusCode).toBe(409);
    expect((await api.get(`/v2/releases/${draft.id}`, root)).statusCode).toBe(200);
  });

  it('404: none such', async () => {
    expect((await api.del('/v2/releases/2147483000', root)).statusCode).toBe(404);
  });
});

describe('rank', () => {
  it('403 for admin and super on every route; 401 signed out', async () => {
    const draft = await cut();
    for (const role of ['admin', 'super'] as const) {
      const cookie = await signIn(t.app, (await makeUser(t.database, role)).email);
      expect((await api.get('/v2/releases', cookie)).statusCode).toBe(403);
      expect((await api.get(`/v2/releases/${draft.id}`, cookie)).statusCode).toBe(403);
      expect((await api.post('/v2/releases', cookie, { version: fresh(), commit: HEAD })).statusCode).toBe(403);
      expect((await api.put(`/v2/releases/${draft.id}`, cookie, { notes: 'x' })).statusCode).toBe(403);
      expect((await api.post(`/v2/releases/${draft.id}/publish`, cookie, {})).statusCode).toBe(403);
      expect((await api.del(`/v2/releases/${draft.id}`, cookie)).statusCode).toBe(403);
    }
    expect((await api.get('/v2/releases', '')).statusCode).toBe(401);
  });

  it('audits what root did', async () => {
    const draft = await cut();
    await api.post(`/v2/releases/${draft.id}/publish`, root, {});
    const rows = await auditedOf(t.database, 'release', draft.id);
    expect(rows.map((r) => r.action).sort()).toEqual(['release.create', 'release.publish']);
  });
});
