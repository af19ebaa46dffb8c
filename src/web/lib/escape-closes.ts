import { useEffect, type RefObject } from 'react';

/**
 * Escape closes an open disclosure menu (the phone's menus) and puts focus back on the button that
 * opened it, as the WAI-ARIA disclosure pattern has it: a keyboard user is never left on a button
 * whose menu covers the page. Only a key pressed on the button, in the menu or with focus nowhere
 * (the page's body) counts, so a dialog's own Escape is left alone.
 */
export function useEscapeCloses({
  open,
  onClose,
  opener,
  menu,
}: {
  open: boolean;
  onClose: () => void;
  opener: RefObject<HTMLElement | null>;
  menu: RefObject<HTMLElement | null>;
}): void {
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const target = event.target instanceof Node ? event.target : null;
      const inside = target === document.body || !!(target && (opener.current?.contains(target) || menu.current?.contains(target)));
      if (!inside) return;
      onClose();
      opener.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open, onClose, opener, menu]);
}
