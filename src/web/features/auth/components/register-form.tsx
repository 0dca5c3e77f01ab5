import { zodResolver } from '@hookform/resolvers/zod';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import {
  RegisterFormSchema,
  type RegisterFormInput,
} from '../../../../shared/schemas/users';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import {
  EmailField,
  PasswordField,
} from '../../../components/forms/credential-fields';
import { paths } from '../../../config/paths';
import { isApiError } from '../../../lib/api-error';
import { clearAuthNotice, setAuthNotice } from '../../../lib/auth-notice';
import { useRegister } from '../api/register';
import './auth.css';
import '../../../components/ui/field.css';

function failureText(error: unknown): string {
  if (isApiError(error)) return `Registration failed: ${error.message}`;
  return 'Registration failed: the server could not be reached.';
}

/**
 * Registration (spec §2, §5): the passwords must match or nothing is sent; after the call
 * returns the user goes to /login whatever the outcome, where a notice tells how it went.
 */
export function RegisterForm({ productName }: { productName: ReactNode }) {
  const navigate = useNavigate();
  const registration = useRegister();
  const {
    register,
    handleSubmit,
    clearErrors,
    formState: { errors },
  } = useForm<RegisterFormInput>({
    resolver: zodResolver(RegisterFormSchema),
    // Checked on submit only: the alert appears when Register is pressed (spec §5).
    reValidateMode: 'onSubmit',
    defaultValues: {
      email: '',
      password: '',
      confirmPassword: '',
      firstName: '',
      lastName: '',
      organization: '',
    },
  });

  // The confirmation is checked by the schema and never sent (spec §3).
  const onSubmit = handleSubmit(({ confirmPassword: _confirm, ...payload }) => {
    registration.mutate(payload, {
      onSuccess: () =>
        setAuthNotice({
          tone: 'success',
          text: 'Registration complete. Please log in.',
        }),
      onError: (error) =>
        setAuthNotice({ tone: 'error', text: failureText(error) }),
      onSettled: () => navigate(paths.login),
    });
  });

  const mismatch = errors.confirmPassword?.message;

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <h1 className="auth-title">Register on {productName}</h1>
      {mismatch ? (
        <Alert tone="danger" onDismiss={() => clearErrors('confirmPassword')}>
          {mismatch}
        </Alert>
      ) : null}
      <EmailField field={register('email')} autoComplete="email" />
      <div className="field-row">
        <PasswordField
          label="Password"
          field={register('password')}
          autoComplete="new-password"
        />
        <PasswordField
          label="Confirm Password"
          field={register('confirmPassword')}
          autoComplete="new-password"
          invalid={Boolean(mismatch)}
        />
      </div>
      <div className="field-row">
        <Field
          label="First Name"
          inputProps={{ ...register('firstName'), autoComplete: 'given-name' }}
        />
        <Field
          label="Last Name"
          inputProps={{ ...register('lastName'), autoComplete: 'family-name' }}
        />
      </div>
      <Field
        label="Organization (optional)"
        inputProps={{
          ...register('organization'),
          autoComplete: 'organization',
        }}
      />
      <div className="form-actions">
        <Button
          type="submit"
          variant="primary"
          className="btn-block"
          pending={registration.isPending}
        >
          Register
        </Button>
        <Button
          variant="ghost"
          className="btn-block"
          onClick={() => {
            clearAuthNotice();
            navigate(paths.login);
          }}
        >
          Go to Login
        </Button>
      </div>
    </form>
  );
}
