import { useState, type ReactNode } from 'react';
import { NavigationType, useNavigate, useNavigationType } from 'react-router';
import { ConfirmDialog } from '../components/ui/confirm-dialog';
import { usePageId } from '../components/ui/overlay';
import { paths } from '../config/paths';
import { logout } from '../features/auth/logout';
import { setAuthNotice } from '../lib/auth-notice';
import '../components/ui/button.css';
import './shell-chrome.css';

/** The navbar pieces both shells share: the phone drawer and the logout confirmation. */

const LOGOUT_QUESTION = 'Are you sure you want to logout?';

/**
 * The sidebar drawer of small screens. It belongs to one location, so going somewhere closes
 * it; a redirect the app makes on its own (a REPLACE, such as the first load's move to Quick
 * Start) carries it over instead of snatching it away from the user.
 */
export function useDrawer() {
  const page = usePageId();
  const navigationType = useNavigationType();
  const [openAt, setOpenAt] = useState<string | null>(null);
  if (openAt !== null && openAt !== page) {
    // Forgotten, not just hidden: Forward back to the entry must not reopen it.
    setOpenAt(navigationType === NavigationType.Replace ? page : null);
  }
  const open = openAt === page;
  return {
    open,
    toggle: () => setOpenAt(open ? null : page),
    close: () => setOpenAt(null),
  };
}

export function MenuButton({
  open,
  onToggle,
}: {
  open: boolean;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      className="icon-button menu-button"
      aria-label="Menu"
      aria-expanded={open}
      aria-controls="sidebar"
      onClick={onToggle}
    >
      <span aria-hidden="true" className="hamburger" />
    </button>
  );
}

/** Logout asks first (spec §2); OK clears the credentials and goes to /login. */
export function useLogoutConfirmation(): {
  ask: () => void;
  dialog: ReactNode;
} {
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const dialog = (
    <ConfirmDialog
      open={asking}
      text={LOGOUT_QUESTION}
      onCancel={() => setAsking(false)}
      onConfirm={() => {
        setAsking(false);
        logout();
        setAuthNotice({ tone: 'success', text: 'You have been logged out.' });
        navigate(paths.login);
      }}
    />
  );
  return { ask: () => setAsking(true), dialog };
}
