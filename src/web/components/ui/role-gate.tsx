import { useId, type ReactNode } from 'react';
import { needsRoleText, useCanCall, type Access } from '../../lib/permissions';
import { PageHeader } from './page-header';

/**
 * Renders `children` only when the signed-in user holds a role granting `access`; otherwise a
 * short note under the section's (or page's) title, and the section's calls are never made:
 * a 403 would log the user out (spec §8, issue 17).
 */
export function RoleGate({
  access,
  title,
  page = false,
  children,
}: {
  access: Access;
  /** The title the section or page would have. */
  title: string;
  /** A whole screen: the title is the page's heading. */
  page?: boolean;
  children: ReactNode;
}) {
  const allowed = useCanCall(access);
  const titleId = useId();
  if (allowed) return children;
  const note = (
    <p className="muted">
      Not available with your roles. {needsRoleText(access)}.
    </p>
  );
  if (page) {
    return (
      <>
        <PageHeader title={title} />
        <div className="card">{note}</div>
      </>
    );
  }
  return (
    <section className="stack-sm" aria-labelledby={titleId}>
      <h2 id={titleId} className="section-title">
        {title}
      </h2>
      <div className="card">{note}</div>
    </section>
  );
}
