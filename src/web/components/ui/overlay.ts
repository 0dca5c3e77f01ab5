import { useEffect, useRef, useState, type RefObject } from 'react';
import { useLocation } from 'react-router';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE));
}

/**
 * Modal behaviour shared by the confirmation dialog, the side panel and the mobile menu:
 * everything else on the page is made inert, Tab cycles inside, Escape calls `onEscape`, and
 * focus goes back where it was when the overlay closes.
 */
export function useModal(
  open: boolean,
  container: RefObject<HTMLElement | null>,
  options: {
    onEscape?: () => void;
    initialFocus?: RefObject<HTMLElement | null>;
  } = {},
) {
  const onEscape = useRef(options.onEscape);
  const initialFocus = options.initialFocus;
  useEffect(() => {
    onEscape.current = options.onEscape;
  });

  useEffect(() => {
    const node = container.current;
    if (!open || !node) return;
    const previouslyFocused = document.activeElement as HTMLElement | null;

    const host = node.closest('[data-overlay-root]') ?? node;
    const madeInert: HTMLElement[] = [];
    for (const child of Array.from(document.body.children)) {
      if (
        child instanceof HTMLElement &&
        !child.contains(host) &&
        !child.inert &&
        !child.hasAttribute('data-overlay-exempt')
      ) {
        child.inert = true;
        madeInert.push(child);
      }
    }

    const first = initialFocus?.current ?? focusables(node)[0] ?? node;
    first.focus();

    function onKeyDown(event: KeyboardEvent) {
      if (!node) return;
      if (event.key === 'Escape' && onEscape.current) {
        event.stopPropagation();
        onEscape.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusables(node);
      if (items.length === 0) {
        event.preventDefault();
        return;
      }
      const firstItem = items[0]!;
      const lastItem = items[items.length - 1]!;
      if (event.shiftKey && document.activeElement === firstItem) {
        event.preventDefault();
        lastItem.focus();
      } else if (!event.shiftKey && document.activeElement === lastItem) {
        event.preventDefault();
        firstItem.focus();
      }
    }
    node.addEventListener('keydown', onKeyDown);

    return () => {
      node.removeEventListener('keydown', onKeyDown);
      for (const child of madeInert) child.inert = false;
      if (previouslyFocused && document.contains(previouslyFocused)) {
        previouslyFocused.focus();
      }
    };
  }, [open, container, initialFocus]);
}

/**
 * An overlay belongs to the history entry (location key) it was opened on. Opening one adds
 * no history entry, so Back does what it does without it: it leaves the page, and the overlay
 * goes with the page. Any other navigation (a link, a typed address, a redirect) does the
 * same. Without this, an overlay kept by a component that outlives the page (the side panel's
 * provider sits above every route, a shell's dialog above its screens) stays open over the
 * next page, which its modality has made inert.
 *
 * Returns whether the overlay is to be shown now, and calls `close` once when the location
 * moves on, so the owner's state says closed too (Forward to the old entry must not bring a
 * stale overlay back).
 */
export function useOpenOnThisPage(open: boolean, close: () => void): boolean {
  const key = usePageId();
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  // Adjusted while rendering (not in an effect) so the first frame already knows its page.
  if (open && openedAt === null) setOpenedAt(key);
  if (!open && openedAt !== null) setOpenedAt(null);
  const left = open && openedAt !== null && openedAt !== key;

  const onLeave = useRef(close);
  useEffect(() => {
    onLeave.current = close;
  });
  useEffect(() => {
    if (left) onLeave.current();
  }, [left]);

  return open && !left;
}

/**
 * Names the history entry shown now. The location key alone is not enough: entries the
 * browser makes itself (a typed address, a bookmark, a hash edit) carry no state, so the
 * router gives every one of them the key 'default'; the address tells those apart.
 */
export function usePageId(): string {
  const { key, pathname, search, hash } = useLocation();
  return `${key} ${pathname}${search}${hash}`;
}
