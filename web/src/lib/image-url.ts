import { RESOURCE_PATHS } from '@tessera/common/resources';

/** Where a user's `image` is shown from: a path or URL as given, a bare stored name under /v2/images/. */
export function imageUrl(image: string): string | undefined {
  if (image === '') return undefined;
  if (/^(\/|https?:|data:|blob:)/i.test(image)) return image;
  return RESOURCE_PATHS.image(encodeURIComponent(image));
}
