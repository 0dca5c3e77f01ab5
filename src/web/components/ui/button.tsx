import type { ComponentPropsWithRef } from 'react';
import { Link, type LinkProps } from 'react-router';
import { cx } from '../../lib/cx';
import { Spinner } from './spinner';
import './button.css';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  variant?: Variant;
  size?: 'md' | 'sm';
  /** Shows a spinner over the label (keeping the width) and disables the button. */
  pending?: boolean;
}

function classes(variant: Variant, size: 'md' | 'sm', extra?: string) {
  return cx('btn', `btn-${variant}`, size === 'sm' && 'btn-sm', extra);
}

export function Button({
  variant = 'secondary',
  size = 'md',
  pending = false,
  className,
  children,
  disabled,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={classes(variant, size, cx(pending && 'is-pending', className))}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      {...rest}
    >
      <span className="btn-label">{children}</span>
      {pending ? <Spinner className="btn-spinner" /> : null}
    </button>
  );
}

/** A router link that looks like a button. */
export function ButtonLink({
  variant = 'secondary',
  size = 'md',
  className,
  children,
  ...rest
}: LinkProps & { variant?: Variant; size?: 'md' | 'sm' }) {
  return (
    <Link className={classes(variant, size, className)} {...rest}>
      <span className="btn-label">{children}</span>
    </Link>
  );
}
