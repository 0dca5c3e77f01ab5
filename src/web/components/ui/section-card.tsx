import { useId, type ReactNode } from 'react';
import { cx } from '../../lib/cx';

/**
 * A card holding one section of a page: a region named by its heading, with optional actions
 * beside the heading (a CSV download, a toggle).
 */
export function SectionCard({
  title,
  actions,
  className,
  level = 2,
  children,
}: {
  title: ReactNode;
  /** h2 on a page; h3 inside a side panel, under the panel's own heading. */
  level?: 2 | 3;
  actions?: ReactNode;
  /** The card's spacing (`stack`, `stack-sm`), if its content needs it. */
  className?: string;
  children: ReactNode;
}) {
  const titleId = useId();
  const Heading = level === 2 ? 'h2' : 'h3';
  const heading = (
    <Heading id={titleId} className="section-title">
      {title}
    </Heading>
  );
  return (
    <section className={cx('card', className)} aria-labelledby={titleId}>
      {actions ? (
        <div className="section-header">
          {heading}
          {actions}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}
