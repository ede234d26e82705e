/** Saves what the page made or was given as a file download, under the name given (no navigation, no new tab). */
export function saveFile(content: Blob, name: string): void {
  const url = URL.createObjectURL(content);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // Revoked later: the download starts asynchronously and still reads the URL.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
