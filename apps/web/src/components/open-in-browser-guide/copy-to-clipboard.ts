/**
 * Copies text: with the Clipboard API where the browser offers it, else (older in-app browsers,
 * pages not served over https) by selecting the text in a read-only input and `execCommand`.
 * Resolves to whether the text reached the clipboard.
 */
export async function copyToClipboard(
  text: string,
  fallbackInput: HTMLInputElement | null,
): Promise<boolean> {
  if ('clipboard' in navigator && typeof navigator.clipboard.writeText === 'function') {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission, not a secure context): try the old way.
    }
  }
  if (!fallbackInput) return false;
  fallbackInput.focus();
  fallbackInput.select();
  fallbackInput.setSelectionRange(0, fallbackInput.value.length);
  try {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the only way in old web views
    return document.execCommand('copy');
  } catch {
    return false;
  }
}
