import { cx } from '../../lib/cx';
import './spinner.css';

/** A decorative spinner; pass `label` to make it a loading image that assistive tech reads. */
export function Spinner({
  label,
  className,
}: {
  label?: string;
  className?: string;
}) {
  return label ? (
    <span role="img" aria-label={label} className={cx('spinner', className)} />
  ) : (
    <span aria-hidden="true" className={cx('spinner', className)} />
  );
}

/** A grey block shaped like the content that is loading. */
export function Skeleton({
  width = '100%',
  height = '1em',
  className,
}: {
  width?: string | number;
  height?: string | number;
  className?: string;
}) {
  return (
    <span
      aria-hidden="true"
      className={cx('skeleton', className)}
      style={{ width, height }}
    />
  );
}
