/**
 * Makes the browser save a Blob as a file named `fileName` (an export, a deleted ticket's notes):
 * a temporary object URL on a link with `download`, released once the download has started.
 */
export function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
