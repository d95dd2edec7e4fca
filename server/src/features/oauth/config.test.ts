import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';

const google = {
  OAUTH_GOOGLE_CLIENT_ID: 'id.apps.example',
  OAUTH_GOOGLE_CLIENT_SECRET: 's3cret',
  OAUTH_GOOGLE_ISSUER: 'https://accounts.google.com',
};

describe('OAUTH_* configuration', () => {
  it('configures no provider by default and assumes no issuer', () => {
    expect(loadConfig({}).oauth).toEqual({});
  });

  it('configures a provider only when client id, secret and issuer are all set', () => {
    const { oauth } = loadConfig(google);
    expect(Object.keys(oauth)).toEqual(['google']);
    expect(oauth.google).toMatchObject({ clientId: 'id.apps.example', clientSecret: 's3cret' });
    expect(oauth.google!.issuer.href).toBe('https://accounts.google.com/');
    for (const missing of Object.keys(google)) {
      expect(loadConfig({ ...google, [missing]: ' ' }).oauth).toEqual({});
    }
  });

  it('reads each provider from its own variables', () => {
    const { oauth } = loadConfig({
      OAUTH_LINKEDIN_CLIENT_ID: 'li',
      OAUTH_LINKEDIN_CLIENT_SECRET: 'li-secret',
      OAUTH_LINKEDIN_ISSUER: 'https://www.linkedin.com/oauth',
      OAUTH_MICROSOFT_CLIENT_ID: 'ms',
      OAUTH_MICROSOFT_CLIENT_SECRET: 'ms-secret',
      OAUTH_MICROSOFT_ISSUER: 'https://login.microsoftonline.com/common/v2.0',
    });
    expect(oauth.linkedin!.issuer.href).toBe('https://www.linkedin.com/oauth');
    expect(oauth.microsoft!.clientId).toBe('ms');
    expect(oauth.github).toBeUndefined();
  });

  it('needs an https issuer; plain http only on loopback', () => {
    expect(loadConfig({ ...google, OAUTH_GOOGLE_ISSUER: 'http://127.0.0.1:9000' }).oauth.google).toBeDefined();
    expect(loadConfig({ ...google, OAUTH_GOOGLE_ISSUER: 'http://localhost:9000/op' }).oauth.google).toBeDefined();
    for (const bad of ['http://accounts.google.com', 'accounts.google.com', 'https://op.example/?x=1', 'ftp://op']) {
      expect(() => loadConfig({ ...google, OAUTH_GOOGLE_ISSUER: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ ...google, OAUTH_GOOGLE_ISSUER: bad })).toThrow(/OAUTH_GOOGLE_ISSUER/);
    }
  });
});
