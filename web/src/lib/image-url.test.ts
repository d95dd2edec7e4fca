import { describe, expect, it } from 'vitest';
import { imageUrl } from './image-url';

describe('a user picture’s address', () => {
  it('is none for no picture, the path or URL as stored, or a bare name under /v2/images/', () => {
    expect(imageUrl('')).toBeUndefined();
    expect(imageUrl('/v2/images/abc.png')).toBe('/v2/images/abc.png');
    expect(imageUrl('https://cdn.example/a.png')).toBe('https://cdn.example/a.png');
    expect(imageUrl('abc.png')).toBe('/v2/images/abc.png');
  });
});
