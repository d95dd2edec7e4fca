/** RapiDoc ships no types; the page imports it only for its custom element (rapi-doc.d.ts). */
declare module 'rapidoc';
