import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { cx } from '../../lib/cx';
import './hover-dropdown.css';

export interface MenuEntry {
  key: string;
  text: string;
  onSelect: () => void;
}

const CLOSE_DELAY_MS = 150;

/**
 * A menu that opens on hover or click (the menu-button pattern): Enter, Space or the arrow
 * keys open it, arrows move, Escape closes it and returns focus to the button.
 */
export function HoverDropdown({
  label,
  items,
  className,
}: {
  label: string;
  items: MenuEntry[];
  className?: string;
}) {
  // How it opened: a click after a hover-open must keep it open, not toggle it shut.
  const [openedBy, setOpenedBy] = useState<'hover' | 'click' | null>(null);
  const open = openedBy !== null;
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(
    undefined,
  );
  const [focusIndex, setFocusIndex] = useState<number | null>(null);

  useEffect(() => {
    if (!open || focusIndex === null) return;
    const items =
      menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [];
    items[focusIndex]?.focus();
  }, [open, focusIndex]);

  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: PointerEvent) {
      if (!root.current?.contains(event.target as Node)) setOpenedBy(null);
    }
    // A menu opened by hovering must close on Escape wherever focus is (WCAG 1.4.13:
    // content shown on hover can be dismissed without moving the pointer).
    function onKeyDown(event: globalThis.KeyboardEvent) {
      if (event.key !== 'Escape') return;
      const focusInside = root.current?.contains(document.activeElement);
      setOpenedBy(null);
      setFocusIndex(null);
      if (focusInside) button.current?.focus();
    }
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  useEffect(() => () => clearTimeout(closeTimer.current), []);

  function openMenu(index: number | null, by: 'hover' | 'click') {
    clearTimeout(closeTimer.current);
    setOpenedBy((current) => (current === 'click' ? current : by));
    setFocusIndex(index);
  }

  function closeMenu(returnFocus: boolean) {
    clearTimeout(closeTimer.current);
    setOpenedBy(null);
    setFocusIndex(null);
    if (returnFocus) button.current?.focus();
  }

  function onButtonKeyDown(event: KeyboardEvent) {
    if (
      event.key === 'ArrowDown' ||
      event.key === 'Enter' ||
      event.key === ' '
    ) {
      event.preventDefault();
      openMenu(0, 'click');
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openMenu(items.length - 1, 'click');
    }
  }

  function onMenuKeyDown(event: KeyboardEvent) {
    const last = items.length - 1;
    const index = focusIndex ?? 0;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setFocusIndex(index >= last ? 0 : index + 1);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setFocusIndex(index <= 0 ? last : index - 1);
    } else if (event.key === 'Home') {
      event.preventDefault();
      setFocusIndex(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      setFocusIndex(last);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      closeMenu(true);
    } else if (event.key === 'Tab') {
      closeMenu(false);
    }
  }

  return (
    <div
      ref={root}
      className={cx('dropdown', className)}
      onMouseEnter={() => openMenu(focusIndex, 'hover')}
      onMouseLeave={() => {
        if (openedBy !== 'hover') return;
        closeTimer.current = setTimeout(() => closeMenu(false), CLOSE_DELAY_MS);
      }}
    >
      <button
        ref={button}
        type="button"
        className="dropdown-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() =>
          openedBy === 'click' ? closeMenu(false) : openMenu(null, 'click')
        }
        onKeyDown={onButtonKeyDown}
      >
        <span className="dropdown-label">{label}</span>
        <span aria-hidden="true" className="chevron" />
      </button>
      {open ? (
        <ul
          ref={menu}
          id={menuId}
          role="menu"
          aria-label={label}
          className="dropdown-menu"
          onKeyDown={onMenuKeyDown}
        >
          {items.map((item, index) => (
            <li key={item.key} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={focusIndex === index ? 0 : -1}
                className="dropdown-item"
                onClick={() => {
                  // Focus goes back to the button first, so a dialog opened by the item
                  // returns focus there when it closes.
                  closeMenu(true);
                  item.onSelect();
                }}
              >
                {item.text}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
