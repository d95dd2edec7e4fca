import { randomUUID } from 'node:crypto';
import { MESSAGES } from '@tessera/common/validation';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, storageEnv } from '../test/process';

let env: Record<string, string>;
beforeAll(() => {
  env = storageEnv();
});

describe('tessera CLI', () => {
  it('migrate applies migrations', async () => {
    const { code, output } = await runCli(['migrate'], env);
    expect(code).toBe(0);
    expect(output).toMatch(/Migrations applied \((pglite|postgres)\)\./);
  });

  it('user create makes a user, and refuses a duplicate', async () => {
    const email = `admin-${randomUUID()}@tessera.test`;
    const args = ['user', 'create', '--email', email, '--role', 'admin', '--password', 'Adm1n-passw0rd'];
    const first = await runCli(args, env);
    expect(first.code).toBe(0);
    expect(first.output).toMatch(new RegExp(`Created admin user \\d+ <${email}>\\.`));
    const again = await runCli(args, env);
    expect(again.code).toBe(2);
    expect(again.output).toContain(`There is already a user account for ${email}.`);
  });

  it('user create refuses a weak password, a bad e-mail and an unknown role', async () => {
    const email = `u-${randomUUID()}@tessera.test`;
    const weak = await runCli(['user', 'create', '--email', email, '--password', 'short'], env);
    expect(weak.code).toBe(2);
    expect(weak.output).toContain(MESSAGES.password);
    const badEmail = await runCli(['user', 'create', '--email', 'not-an-email', '--password', 'Adm1n-passw0rd'], env);
    expect(badEmail.code).toBe(2);
    expect(badEmail.output).toContain(MESSAGES.email);
    const role = await runCli(['user', 'create', '--email', email, '--role', 'emperor'], env);
    expect(role.code).toBe(2);
    expect(role.output).toContain('Unknown role "emperor".');
  });

  it('user create refuses an organization that does not exist, and creates nobody', async () => {
    const email = `u-${randomUUID()}@tessera.test`;
    const args = ['user', 'create', '--email', email, '--password', 'Adm1n-passw0rd', '--organization', 'Nowhere Inc'];
    const res = await runCli(args, env);
    expect(res.code).toBe(2);
    expect(res.output).toContain('No organization is named "Nowhere Inc".');
    const retry = await runCli(['user', 'create', '--email', email, '--password', 'Adm1n-passw0rd'], env);
    expect(retry.code).toBe(0);
  });

  it('explains itself', async () => {
    const help = await runCli(['help'], env);
    expect(help.code).toBe(0);
    expect(help.output).toContain('user create --email E --role R');
    const unknown = await runCli(['explode'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.output).toContain('Unknown command "explode".');
    const missing = await runCli(['user', 'create'], env);
    expect(missing.code).toBe(2);
    expect(missing.output).toContain('user create needs --email.');
  });
});
