import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Field } from '../ui/field';
import '../ui/field.css';

/** A react-hook-form registration, or only the name for a form read when submitted (Login). */
type Binding = UseFormRegisterReturn | { name: string };

/** An e-mail address: typed as one, never spell-checked; `autoComplete` says what it is for. */
export function EmailField({
  field,
  autoComplete,
  error,
}: {
  field: Binding;
  autoComplete: 'username' | 'email';
  error?: string;
}) {
  return (
    <Field
      label="Email"
      error={error}
      inputProps={{ ...field, type: 'email', autoComplete, spellCheck: false }}
    />
  );
}

/** A password, hidden as typed: `autoComplete` tells password managers the current one from a new one. */
export function PasswordField({
  label,
  field,
  autoComplete,
  hint,
  error,
  invalid,
}: {
  label: string;
  field: Binding;
  autoComplete: 'current-password' | 'new-password';
  hint?: ReactNode;
  error?: string;
  /** Marks the field invalid when its error is shown elsewhere (an alert). */
  invalid?: boolean;
}) {
  return (
    <Field
      label={label}
      hint={hint}
      error={error}
      inputProps={{
        ...field,
        type: 'password',
        autoComplete,
        'aria-invalid': invalid ? true : undefined,
      }}
    />
  );
}
