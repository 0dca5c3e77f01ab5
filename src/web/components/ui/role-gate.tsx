import { useId, type ReactNode } from 'react';
import { needsRoleText, useCanCall, type Access } from '../../lib/permissions';

/**
 * A section of an admin screen: renders `children` only when the signed-in user holds a role
 * granting `access`; otherwise a short note under the section's title, and the section's calls
 * are never made: a 403 would log the user out (spec §8, issue 17). Whole screens are not gated:
 * their own call is the server's to refuse, which sends the user to /login as the spec says.
 */
export function RoleGate({
  access,
  title,
  children,
}: {
  access: Access;
  /** The title the section would have. */
  title: string;
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
  return (
    <section className="stack-sm" aria-labelledby={titleId}>
      <h2 id={titleId} className="section-title">
        {title}
      </h2>
      <div className="card">{note}</div>
    </section>
  );
}
