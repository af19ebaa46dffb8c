import { useCallback, useEffect, useRef, useState } from 'react';

/** How long a Copy button says "Copied!". */
export const COPIED_MS = 2000;

/** Puts `text` on the clipboard. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // A denied permission or an older browser: the selection-based copy still works.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

/**
 * The Copy buttons of a page: `copy(key, text)` copies and marks `key` as just copied for
 * COPIED_MS (one at a time: the key says which button reads "Copied!"); `reset` forgets it.
 */
export function useCopied<Key extends string>() {
  const [copied, setCopied] = useState<Key | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback(async (key: Key, text: string) => {
    await copyText(text);
    setCopied(key);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(null), COPIED_MS);
  }, []);
  const reset = useCallback(() => {
    clearTimeout(timer.current);
    setCopied(null);
  }, []);
  return { copied, copy, reset };
}
