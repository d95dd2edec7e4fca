/** Spec §7: an upload's file name is the encoded hash of its content plus its lowercase extension. */
export async function uploadName(file: Blob & { name: string }): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  const base64 = btoa(String.fromCharCode(...new Uint8Array(digest)));
  const encoded = base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const dot = file.name.lastIndexOf('.');
  const extension = dot > 0 ? file.name.slice(dot + 1).toLowerCase() : '';
  return extension ? `${encoded}.${extension}` : encoded;
}
