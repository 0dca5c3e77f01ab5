import type { ReactNode } from 'react';
import './editable-card.css';

/**
 * A card that is one big button (spec §2: "click opens an edit panel"): a title, a hint of
 * what a click does, and label/value pairs. Buttons may not hold a <dl>, so the pairs are spans
 * styled as one. With `readOnlyReason` (the user may not edit it) it is a plain card whose hint
 * says why.
 */
export function EditableCard({
  label,
  title,
  hint,
  details,
  onEdit,
  readOnlyReason,
  children,
}: {
  /** The button's accessible name: what it is and what a click does. */
  label: string;
  title: ReactNode;
  hint: string;
  details: [term: string, value: ReactNode, mono?: boolean][];
  onEdit: () => void;
  /** Why the user may not edit it; the card is then not a button. */
  readOnlyReason?: string;
  children?: ReactNode;
}) {
  const content = (
    <>
      <span className="row">
        {title}
        <span className="muted edit-hint">{readOnlyReason ?? hint}</span>
      </span>
      {children}
      <span className="details">
        {details.map(([term, value, mono]) => (
          <span key={term} className="details-pair">
            <span className="dt">{term}</span>
            <span className={mono ? 'dd mono' : 'dd'}>{value}</span>
          </span>
        ))}
      </span>
    </>
  );
  if (readOnlyReason) return <div className="card">{content}</div>;
  return (
    <button
      type="button"
      className="card card-link"
      aria-label={label}
      onClick={onEdit}
    >
      {content}
    </button>
  );
}
