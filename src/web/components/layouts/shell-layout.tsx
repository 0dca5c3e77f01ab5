import { useRef, type ReactNode } from 'react';
import { cx } from '../../lib/cx';
import { useModal } from '../ui/overlay';
import '../ui/overlay.css';
import './shell-layout.css';

/**
 * The frame of both shells (DESIGN.md): navbar on top, a 240 px sidebar, the page and the
 * footer in the remaining column. Below 768 px the sidebar becomes a drawer.
 */
export function ShellLayout({
  variant,
  navbar,
  sidebar,
  footer,
  menuOpen,
  onCloseMenu,
  children,
}: {
  variant: 'customer' | 'admin';
  navbar: ReactNode;
  sidebar: ReactNode;
  footer: ReactNode;
  menuOpen: boolean;
  onCloseMenu: () => void;
  children: ReactNode;
}) {
  const drawer = useRef<HTMLElement>(null);
  useModal(menuOpen, drawer, { onEscape: onCloseMenu });
  return (
    <div className="shell" data-shell={variant}>
      <header className="navbar">{navbar}</header>
      <div className="shell-body">
        {menuOpen ? (
          <div
            className="drawer-backdrop"
            aria-hidden="true"
            onClick={onCloseMenu}
          />
        ) : null}
        <nav
          ref={drawer}
          id="sidebar"
          aria-label="Main"
          className={cx('sidebar', menuOpen && 'is-open')}
        >
          {sidebar}
        </nav>
        <div className="shell-main">
          <main className="page">{children}</main>
          <footer className="footer">{footer}</footer>
        </div>
      </div>
    </div>
  );
}

/** Centred card for the public screens (login, register). */
export function AuthLayout({
  children,
  footer,
}: {
  children: ReactNode;
  footer: ReactNode;
}) {
  return (
    <div className="auth">
      <main className="auth-main">
        <div className="card auth-card">{children}</div>
      </main>
      <footer className="footer">{footer}</footer>
    </div>
  );
}
