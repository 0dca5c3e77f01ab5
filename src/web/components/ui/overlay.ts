import { useEffect, useRef, type RefObject } from 'react';

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
