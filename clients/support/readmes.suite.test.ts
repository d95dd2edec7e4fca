/**
 * The READMEs served beside the client packages (issue 31): each names this server, its install command is the one
 * the Client Libraries page shows, and run as written in an empty folder it installs a package that then finds the
 * seeded person; the Java README's Maven command installs the jar with its POM, sources and javadoc, which a Maven
 * project then compiles against offline. Nothing points at a name on a public registry, and every file has an ETag
 * answered 304 on If-None-Match.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientLanguage, ClientPackage } from '@tessera/common/client-packages';
import { beforeAll, describe, expect, it } from 'vitest';
import { installCommand } from '../../web/src/pages/client/install';
import { run, useClientServer } from './server';

const ROOT_DIR = fileURLToPath(new URL('../..', import.meta.url));
const built = run('node', ['scripts/build-clients.mjs'], { cwd: ROOT_DIR, timeoutMs: 240_000 });
const env = useClientServer();
let packages: (ClientPackage & { files?: string[] })[] = [];

beforeAll(async () => {
  const result = await built;
  if (result.code !== 0) throw new Error(`build-clients failed:\n${result.stdout}\n${result.stderr}`);
  packages = ((await (await fetch(`${env.baseUrl}/v2/clients`)).json()) as { clientPackages: typeof packages })
    .clientPackages;
}, 240_000);

const packageOf = (language: ClientLanguage) => {
  const p = packages.find((x) => x.language === language);
  if (!p?.file || !p.readme) throw new Error(`no ${language} package built: ${p?.missing}`);
  return p as Required<Pick<ClientPackage, 'file' | 'readme' | 'version'>> & { files?: string[] };
};

async function served(language: ClientLanguage): Promise<string> {
  const res = await fetch(`${env.baseUrl}/clients/${packageOf(language).readme}`);
  expect(res.status).toBe(200);
  return res.text();
}

/** The shell blocks of the README's Install section, in order. */
function installBlocks(readme: string): string[] {
  const section = /\n## Install\n([\s\S]*?)(?=\n## )/.exec(readme)?.[1] ?? '';
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
}

const fresh = (what: string) => mkdtempSync(path.join(tmpdir(), `tessera-readme-${what}-`));

async function sh(script: string, cwd: string, extra: Record<string, string> = {}) {
  const result = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd, env: extra, timeoutMs: 240_000 });
  expect(result.code, `${script}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`).toBe(0);
  return result.stdout;
}

describe('the READMEs served beside the packages', () => {
  it("carry this server's address, the page's install command, and no name on a public registry", async () => {
    for (const language of ['js', 'python', 'java'] as const) {
      const readme = await served(language);
      const { file } = packageOf(language);
      expect(readme).not.toContain('tessera.example.com');
      expect(installBlocks(readme)[0], language).toBe(installCommand(language, env.baseUrl, file, 'npm'));
      // Every command that installs or downloads fetches from this server: none names a package for a public
      // registry to resolve (the Developing sections' commands work in a checkout, on no package name).
      const commands = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n'));
      const installs = commands.filter((l) => /^\s*(npm install|yarn add|pnpm add|pip install|curl)\b/.test(l));
      expect(installs.length, language).toBeGreaterThan(0);
      for (const line of installs) expect(line, `${language}: ${line}`).toContain(`${env.baseUrl}/clients/`);
      expect(readme).not.toMatch(/npm install @tessera|pip install tessera|mvn install(?!:)/);
    }
    const pkg = JSON.parse(readFileSync(path.join(ROOT_DIR, 'clients/js/package.json'), 'utf8'));
    expect(pkg.private).toBe(true); // never published by mistake under a name the public registry gives out
    expect(pkg.publishConfig).toBeUndefined();
    const pom = await (await fetch(`${env.baseUrl}/clients/${packageOf('java').files![0]}`)).text();
    expect(pom).not.toMatch(/<repositories>|<distributionManagement>/);
  });

  it('JavaScript: npm install as written, in an empty folder, gives a client that finds the person', async () => {
    const dir = fresh('js');
    await sh(installBlocks(await served('js'))[0]!, dir);
    const script = `import { TesseraClient } from '@tessera/client';
const client = new TesseraClient({ baseUrl: process.env.TESSERA_BASE_URL, apiKey: process.env.TESSERA_API_KEY });
const { identities } = await client.byId(Number(process.env.TESSERA_IDENTITY_ID));
console.log(JSON.stringify(identities.map((i) => i.id)));`;
    writeFileSync(path.join(dir, 'check.mjs'), script);
    const out = await sh('node check.mjs', dir, env.env({ TESSERA_IDENTITY_ID: String(env.identityId) }));
    expect(JSON.parse(out)).toContain(env.identityId);
  });

  it('Python: pip install as written, in a fresh virtual environment, gives a client that finds the person', async () => {
    const dir = fresh('python');
    const venv = path.join(dir, '.venv');
    await sh(`python3 -m venv ${venv}`, dir);
    const active = { PATH: `${venv}/bin:${process.env.PATH}`, PIP_DISABLE_PIP_VERSION_CHECK: '1' };
    await sh(installBlocks(await served('python'))[0]!, dir, active);
    const check = `import json, os, tessera
client = tessera.Tessera(os.environ["TESSERA_BASE_URL"], os.environ["TESSERA_API_KEY"])
print(json.dumps([i["id"] for i in client.by_id.get(int(os.environ["TESSERA_IDENTITY_ID"]))["identities"]]))`;
    writeFileSync(path.join(dir, 'check.py'), check);
    const out = await sh('python3 check.py', dir, {
      ...active,
      ...env.env({ TESSERA_IDENTITY_ID: String(env.identityId) }),
    });
    expect(JSON.parse(out)).toContain(env.identityId);
  });

  it('Java: curl as written, then the first example on the jar; the Maven command installs jar, POM, sources and javadoc', async () => {
    const readme = await served('java');
    const [curl, maven] = installBlocks(readme);
    const { file, version } = packageOf('java');
    const dir = fresh('java');
    await sh(curl!, dir);
    writeFileSync(path.join(dir, 'FirstCall.java'), /```java\n([\s\S]*?)```/.exec(readme)![1]!);
    const out = await sh(`java -cp ${file} FirstCall.java`, dir, env.env());
    expect((JSON.parse(out) as { id: number }[]).map((i) => i.id)).toContain(env.identityId);

    // Into the local Maven repository, as a reader's machine has it; then a project depending on it compiles offline.
    const mavenDir = fresh('maven');
    await sh(maven!, mavenDir);
    const installed = path.join(homedir(), '.m2/repository/com/tessera/tessera-client', version);
    for (const suffix of ['.jar', '.pom', '-sources.jar', '-javadoc.jar']) {
      expect(existsSync(path.join(installed, `tessera-client-${version}${suffix}`)), suffix).toBe(true);
    }
    const project = fresh('maven-project');
    mkdirSync(path.join(project, 'src/main/java'), { recursive: true });
    writeFileSync(path.join(project, 'src/main/java/FirstCall.java'), /```java\n([\s\S]*?)```/.exec(readme)![1]!);
    const dependency = /```xml\n([\s\S]*?)```/.exec(readme)![1]!;
    writeFileSync(
      path.join(project, 'pom.xml'),
      `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>example</groupId><artifactId>first-call</artifactId><version>1</version>
<properties><maven.compiler.release>17</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>
<dependencies>${dependency}</dependencies>
<build><plugins>
<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.11.0</version></plugin>
<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
</plugins></build></project>`,
    );
    await sh('mvn -q -o compile', project);
    expect(existsSync(path.join(project, 'target/classes/FirstCall.class'))).toBe(true);
  });

  it('answers a conditional GET of a package or a README with 304 when its ETag still holds', async () => {
    for (const name of [packageOf('js').file, packageOf('java').readme]) {
      const url = `${env.baseUrl}/clients/${name}`;
      const first = await fetch(url);
      await first.arrayBuffer();
      const etag = first.headers.get('etag');
      expect(etag, name).toMatch(/^W\/"/);
      const again = await fetch(url, { headers: { 'if-none-match': etag! } });
      expect(again.status, name).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect((await again.arrayBuffer()).byteLength).toBe(0);
    }
  });
});
