/** Spec §7: an upload's file name is the encoded hash of its content plus its lowercase extension. */
function readBytes(blob: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

export async function uploadName(file: Blob & { name: string }): Promise<string> {
  // Copied into this realm's typed array: jsdom's FileReader hands back a foreign ArrayBuffer.
  const digest = await crypto.subtle.digest('SHA-256', new Uint8Array(await readBytes(file)).slice());
  const base64 = btoa(String.fromCharCode(...new Uint8Array(digest)));
  const encoded = base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const dot = file.name.lastIndexOf('.');
  const extension = dot > 0 ? file.name.slice(dot + 1).toLowerCase() : '';
  return extension ? `${encoded}.${extension}` : encoded;
}
