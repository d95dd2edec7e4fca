/** RapiDoc's custom element (docs/decisions/0030-api-reference-renderer.md), as TypeScript knows them. */
import type { CSSProperties } from 'react';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      /** Attributes as RapiDoc names them (kebab-case strings). */
      'rapi-doc': { style?: CSSProperties; [attribute: `${string}-${string}`]: string | undefined; theme?: string };
    }
  }
}
