/**
 * Saves text the renderer made as a file: a Blob behind a temporary <a download>, which
 * both shells handle as a download (Electron's default save dialog; the browser's own).
 *
 * The CSP needs no `blob:` for this: a download is a navigation, not a fetch, and no
 * fetch directive (default-src, connect-src…) governs it. `blob:` would only be needed
 * to load the Blob as an image, script, frame or via fetch(), which this does not do.
 */
export function downloadFile(fileName: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const a = document.createElement('a')
  a.href = url
  a.download = fileName
  a.rel = 'noopener'
  a.hidden = true
  document.body.append(a)
  a.click()
  a.remove()
  // Keep the URL alive while a save dialog may still read it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
