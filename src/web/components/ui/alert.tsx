import type { ReactNode } from 'react';
import { cx } from '../../lib/cx';
import './button.css';
import './alert.css';

export type Tone = 'danger' | 'warning' | 'success' | 'info';

/**
 * An inline banner. The element with the role holds only the message, so its text is
 * exactly the spec's; the dismiss button sits beside it.
 */
export function Alert({
  tone = 'danger',
  role,
  children,
  onDismiss,
  className,
}: {
  tone?: Tone;
  role?: 'alert' | 'status';
  children: ReactNode;
  onDismiss?: () => void;
  className?: string;
}) {
  const resolvedRole =
    role ?? (tone === 'danger' || tone === 'warning' ? 'alert' : 'status');
  return (
    <div className={cx('banner', `banner-${tone}`, className)}>
      <div role={resolvedRole} className="banner-text">
        {children}
      </div>
      {onDismiss ? (
        <button
          type="button"
          className="icon-button banner-dismiss"
          aria-label="Dismiss"
          onClick={onDismiss}
        >
          <span aria-hidden="true">×</span>
        </button>
      ) : null}
    </div>
  );
}
