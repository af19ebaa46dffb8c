import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { useEscapeCloses } from './escape-closes';

/**
 * Focus never falls to the page. A button disabled while its call runs, a row that leaves the list
 * once approved, a confirmation that closes: each drops the browser's focus to <body>, and a
 * keyboard or screen reader user starts again from the top. The one mutation helper (useAction)
 * and the inline confirmations use what is here, so no page writes its own focus code.
 */

const FOCUSABLE =
  'button:not([disabled]), a[href], input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex="0"]';

/** Focus sits nowhere: on the page's body (or nothing), as after its element was removed or disabled. */
export function focusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || !active.isConnected;
}

function usable(element: Element | null | undefined): element is HTMLElement {
  return element instanceof HTMLElement && element.isConnected && !element.matches(':disabled') && element.getClientRects().length > 0;
}

/** Focuses the element if it can take focus now; says whether it did. */
export function focusIfUsable(element: Element | null | undefined): boolean {
  if (!usable(element)) return false;
  element.focus();
  return document.activeElement === element;
}

/** A row's action: its first enabled button, else its first link or field. */
function focusRowAction(row: Element | null | undefined): boolean {
  if (!row?.isConnected) return false;
  const buttons = Array.from(row.querySelectorAll('button:not([disabled])'));
  const others = Array.from(row.querySelectorAll(FOCUSABLE));
  return [...buttons, ...others].some((element) => focusIfUsable(element));
}

/** A row on the page whose buttons are all disabled for now (its list is busy). */
function onlyDisabledButtons(row: Element | null | undefined): boolean {
  if (!row?.isConnected) return false;
  const buttons = row.querySelectorAll('button');
  return buttons.length > 0 && row.querySelector('button:not([disabled])') === null;
}

/**
 * The row itself, when it stayed on the page but its action went with the change (a failed job
 * retried under "All" is now waiting, with no Retry): the reader stays on that row, which reads
 * its new state, rather than start again from the page's heading. Focusable from script only.
 */
function focusRowItself(row: Element | null | undefined): boolean {
  if (!(row instanceof HTMLElement) || !row.isConnected || row.getClientRects().length === 0) return false;
  if (!row.hasAttribute('tabindex')) row.tabIndex = -1;
  row.focus();
  return document.activeElement === row;
}

/** A heading made focusable from script only (tabindex -1), then focused. */
function focusHeading(heading: HTMLElement | null | undefined): boolean {
  if (!heading?.isConnected) return false;
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus();
  return document.activeElement === heading;
}

/** The page's heading (main's h1). */
function focusPageHeading(): boolean {
  return focusHeading(document.querySelector<HTMLElement>('main h1'));
}

/** The heading of the innermost section still on the page (its aria-labelledby, else its first heading). */
function focusSectionHeading(sections: readonly Element[]): boolean {
  const section = sections.find((each) => each.isConnected);
  if (!section) return false;
  const labelledBy = section.getAttribute('aria-labelledby');
  const named = labelledBy ? document.getElementById(labelledBy) : null;
  const heading = named && section.contains(named) ? named : section.querySelector('h1, h2, h3, h4, h5, h6');
  return heading instanceof HTMLElement && focusHeading(heading);
}

/** The sections of the page's main that hold `element`, innermost first. */
function sectionsOf(element: Element | null): Element[] {
  const sections: Element[] = [];
  for (let each = element?.closest('section') ?? null; each && each.closest('main'); each = each.parentElement?.closest('section') ?? null) sections.push(each);
  return sections;
}

/** Where focus was when an action started: its element, the list row and the sections it was in. */
export interface FocusOrigin {
  trigger: HTMLElement | null;
  row: Element | null;
  rows: Element | null;
  index: number;
  sections: Element[];
  href: string;
}

export function focusOrigin(): FocusOrigin {
  const active = document.activeElement;
  const trigger = active instanceof HTMLElement && active !== document.body ? active : null;
  // A table row (DataTable, at every width) or a list item: the next one takes its place when it goes.
  const row = trigger?.closest('[role="row"], li') ?? null;
  const rows = row?.parentElement ?? null;
  return { trigger, row, rows, index: rows && row ? Array.from(rows.children).indexOf(row) : -1, sections: sectionsOf(trigger), href: location.href };
}

/**
 * Puts focus back somewhere sensible if it fell: the element that started the action (the button
 * that remains), else its row's action (the row re-rendered), else that row itself (it stayed but
 * has no action left), else the action of the row that took
 * its place (or the last row), else the heading of the section it was in (a panel that closed, a
 * list whose last row went: the reader goes on from that part of the page), else the page's
 * heading. The list on screen is refetched after a change and renders a moment after the call
 * answers, so the guard looks again for a short while; it never moves a focus that sits somewhere,
 * and stops when the page changes (a navigation is the router's).
 */
export function restoreFocus(origin: FocusOrigin, { watchMs = 600 }: { watchMs?: number } = {}): void {
  const deadline = Date.now() + watchMs;
  const check = () => {
    if (location.href !== origin.href) return;
    const { trigger, row, rows, index, sections } = origin;
    const siblings = rows?.isConnected ? Array.from(rows.children) : [];
    const replacement = siblings.length > 0 ? siblings[Math.min(index, siblings.length - 1)] : null;
    // The button pressed, or the row that took its row's place, is there but not enabled again yet
    // (a list disables its buttons while a call runs, and the busy state renders a moment after the
    // call ends): wait for it rather than pick another place (the section's heading).
    const waiting = (!!trigger?.isConnected && trigger.matches(':disabled')) || onlyDisabledButtons(row) || onlyDisabledButtons(replacement);
    if (focusLost() && !(waiting && Date.now() < deadline)) {
      void (
        focusIfUsable(trigger) ||
        focusRowAction(row) ||
        focusRowItself(row) ||
        focusRowAction(replacement) ||
        focusSectionHeading(sections) ||
        focusPageHeading()
      );
    }
    if (Date.now() < deadline) setTimeout(check, 25);
  };
  setTimeout(check, 0);
}

/**
 * A change made on the spot that takes away the control pressed (a panel's Done, which closes it):
 * focus goes where it goes after an action (restoreFocus) rather than fall to the page.
 */
export function closeKeepingFocus(close: () => void): void {
  const origin = focusOrigin();
  close();
  restoreFocus(origin);
}

/**
 * An inline confirmation (a question or a reason form that replaces the button that opened it):
 * focus moves into it when it opens, Escape cancels it as its Cancel button does (the phone menus'
 * disclosure pattern, useEscapeCloses), and cancelling puts focus back on the button that opened it.
 * Give `opener` to that button and `panel` to the confirmation; call `cancel` from its Cancel button.
 */
export function useInlineConfirmation<Panel extends HTMLElement = HTMLElement>({
  open,
  onCancel,
}: {
  open: boolean;
  onCancel: () => void;
}): { opener: RefObject<HTMLButtonElement | null>; panel: RefObject<Panel | null>; cancel: () => void } {
  const opener = useRef<HTMLButtonElement>(null);
  const panel = useRef<Panel>(null);
  const [returning, setReturning] = useState(false);
  const latest = useRef(onCancel);
  latest.current = onCancel;
  const cancel = useCallback(() => {
    latest.current();
    setReturning(true);
  }, []);
  useEscapeCloses({ open, onClose: cancel, opener, menu: panel });
  useEffect(() => {
    if (!open) return;
    setReturning(false);
    const inside = panel.current;
    if (inside && !inside.contains(document.activeElement)) {
      Array.from(
        inside.querySelectorAll('textarea:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), button:not([disabled])'),
      ).some((element) => focusIfUsable(element));
    }
  }, [open]);
  useEffect(() => {
    if (open || !returning) return;
    setReturning(false);
    opener.current?.focus();
  }, [open, returning]);
  return { opener, panel, cancel };
}
