import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';
import { cx } from '../../lib/cx';
import './field.css';

interface ShellProps {
  label: string;
  hint?: ReactNode;
  /** Shown in place of the hint; an empty string reserves the line so nothing jumps. */
  error?: string;
  className?: string;
}

interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** Label above, control, then the hint or the error, all bound by ids (STYLE §3.7). */
function FieldShell({
  label,
  hint,
  error,
  className,
  id,
  children,
}: ShellProps & { id?: string; children: (props: ControlProps) => ReactNode }) {
  const generated = useId();
  const controlId = id ?? generated;
  const noteId = `${controlId}-note`;
  const hasNote = hint !== undefined || error !== undefined;
  return (
    <div className={cx('field', className)}>
      <label className="field-label" htmlFor={controlId}>
        {label}
      </label>
      {children({
        id: controlId,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': hasNote ? noteId : undefined,
      })}
      {hasNote ? (
        <div id={noteId} className={cx('field-note', error && 'is-error')}>
          {error || hint}
        </div>
      ) : null}
    </div>
  );
}

export function Field({
  inputProps,
  ...shell
}: ShellProps & { inputProps: ComponentPropsWithRef<'input'> }) {
  return (
    <FieldShell {...shell} id={inputProps.id}>
      {(control) => (
        <input
          {...inputProps}
          className={cx(
            'input',
            inputProps.readOnly && 'is-readonly',
            inputProps.className,
          )}
          id={control.id}
          aria-invalid={control['aria-invalid'] ?? inputProps['aria-invalid']}
          aria-describedby={
            control['aria-describedby'] ?? inputProps['aria-describedby']
          }
        />
      )}
    </FieldShell>
  );
}

export function TextAreaField({
  textareaProps,
  ...shell
}: ShellProps & { textareaProps: ComponentPropsWithRef<'textarea'> }) {
  return (
    <FieldShell {...shell} id={textareaProps.id}>
      {(control) => (
        <textarea
          {...textareaProps}
          className={cx('input', 'textarea', textareaProps.className)}
          id={control.id}
          aria-invalid={
            control['aria-invalid'] ?? textareaProps['aria-invalid']
          }
          aria-describedby={
            control['aria-describedby'] ?? textareaProps['aria-describedby']
          }
        />
      )}
    </FieldShell>
  );
}
