import type { ReactNode } from 'react';
import { Button } from './button';

/**
 * The buttons under a form: the primary submit (a spinner while it saves), then Cancel when
 * the form can be left (disabled while saving, so a save in flight is not abandoned), then
 * any other action of the form.
 */
export function FormActions({
  submit,
  pending,
  disabled = false,
  describedBy,
  onCancel,
  children,
}: {
  /** The submit button's label, e.g. "Update" or "Send SMS". */
  submit: string;
  pending: boolean;
  /** The submit is off, for the reason in the element `describedBy` names. */
  disabled?: boolean;
  describedBy?: string;
  onCancel?: () => void;
  children?: ReactNode;
}) {
  return (
    <div className="form-actions-inline">
      <Button
        type="submit"
        variant="primary"
        pending={pending}
        disabled={disabled}
        aria-describedby={describedBy}
      >
        {submit}
      </Button>
      {onCancel ? (
        <Button onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      ) : null}
      {children}
    </div>
  );
}
