import type { ReactNode } from 'react';
import './editable-card.css';

/**
 * A card that is one big button (spec §2: "click opens an edit panel"): a title, a hint of
 * what a click does, and label/value pairs. Buttons may not hold a <dl>, so the pairs are spans
 * styled as one.
 */
export function EditableCard({
  label,
  title,
  hint,
  details,
  onEdit,
  children,
}: {
  /** The button's accessible name: what it is and what a click does. */
  label: string;
  title: ReactNode;
  hint: string;
  details: [term: string, value: ReactNode, mono?: boolean][];
  onEdit: () => void;
  children?: ReactNode;
}) {
  return (
    <button
      type="button"
      className="card card-link"
      aria-label={label}
      onClick={onEdit}
    >
      <span className="row">
        {title}
        <span className="muted edit-hint">{hint}</span>
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
    </button>
  );
}
