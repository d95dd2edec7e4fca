import { describe, expect, it } from 'vitest';
import { uploadName } from './upload-name';

// SHA-256 of "hello", base64url without padding.
const HELLO = 'LPJNul-wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ';

describe('upload file names (spec §7)', () => {
  it('are the encoded content hash with the lowercase extension', async () => {
    expect(await uploadName(new File(['hello'], 'Photo.JPG'))).toBe(`${HELLO}.jpg`);
  });

  it('are the bare hash when the file has no extension, and ignore a leading dot', async () => {
    expect(await uploadName(new File(['hello'], 'README'))).toBe(HELLO);
    expect(await uploadName(new File(['hello'], '.env'))).toBe(HELLO);
  });

  it('differ when the content differs, whatever the name', async () => {
    expect(await uploadName(new File(['hello!'], 'Photo.JPG'))).not.toBe(`${HELLO}.jpg`);
  });
});
