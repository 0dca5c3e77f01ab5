/**
 * Hands a file made in the browser to the user as a download. An object URL rather than a link
 * to the API: the API needs the Authorization header, which a plain link cannot carry.
 */
export function saveFile(file: Blob, name: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a little later, not at once: a browser may still be reading the blob when the
  // click returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
