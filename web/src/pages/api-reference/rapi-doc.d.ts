/** RapiDoc's custom element (docs/decisions/0030-api-reference-renderer.md), as TypeScript knows them. */
import type { CSSProperties, Ref } from 'react';

/** The element's method the page uses: renders a document given as an object (RapiDoc 9's `loadSpec`). */
export interface RapiDocElement extends HTMLElement {
  loadSpec?(spec: unknown): Promise<void>;
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      /** Attributes as RapiDoc names them (kebab-case strings). */
      'rapi-doc': {
        ref?: Ref<RapiDocElement>;
        style?: CSSProperties;
        [attribute: `${string}-${string}`]: string | undefined;
        theme?: string;
      };
    }
  }
}
