import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import {
  ChangePasswordFormSchema,
  type ChangePasswordFormInput,
} from '../../../../shared/schemas/users';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PasswordField } from '../../../components/forms/credential-fields';
import { paths } from '../../../config/paths';
import { errorText, isApiError } from '../../../lib/api-error';
import { setAuthNotice } from '../../../lib/auth-notice';
import { clearCredentials } from '../../../lib/credentials';
import { useChangePassword } from '../api/change-password';
import '../../../components/ui/field.css';

// Spec §8 words these two refusals itself, whatever the server's message.
const INVALID_NEW_PASSWORD = 'Invalid new password. Please try again';
const INVALID_CURRENT_PASSWORD = 'Invalid current password. Please try again.';
const PASSWORD_CHANGED =
  'Password changed successfully. Please login again with the new password.';

function failureText(error: unknown): string {
  if (isApiError(error, 400)) return INVALID_NEW_PASSWORD;
  if (isApiError(error, 422)) return INVALID_CURRENT_PASSWORD;
  return errorText(error);
}

/**
 * /users/me/password (spec §2, §8): Update Password stays disabled until the new password and
 * its confirmation are equal; success logs out and asks for a login with the new password.
 */
export function ChangePasswordForm() {
  const navigate = useNavigate();
  const change = useChangePassword();
  const { register, handleSubmit, control } = useForm<ChangePasswordFormInput>({
    resolver: zodResolver(ChangePasswordFormSchema),
    defaultValues: {
      currentPassword: '',
      newPassword: '',
      confirmPassword: '',
    },
  });
  // Checked as the user types, not on submit: the button stays disabled until they agree.
  const values = useWatch({ control }) as ChangePasswordFormInput;
  const check = ChangePasswordFormSchema.safeParse(values);
  const matching = check.success;
  const mismatch =
    values.confirmPassword !== '' && !check.success
      ? check.error.issues[0]?.message
      : '';

  const onSubmit = handleSubmit(({ currentPassword, newPassword }) => {
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          clearCredentials();
          setAuthNotice({ tone: 'success', text: PASSWORD_CHANGED });
          navigate(paths.login);
        },
      },
    );
  });

  return (
    <form className="card stack" onSubmit={onSubmit} noValidate>
      {change.error ? (
        <Alert tone="danger">{failureText(change.error)}</Alert>
      ) : null}
      <PasswordField
        label="Current Password"
        field={register('currentPassword')}
        autoComplete="current-password"
      />
      <PasswordField
        label="New Password"
        hint="8 to 128 characters."
        field={register('newPassword')}
        autoComplete="new-password"
      />
      <PasswordField
        label="Confirm New Password"
        error={mismatch}
        field={register('confirmPassword')}
        autoComplete="new-password"
      />
      <div className="form-actions-inline">
        <Button
          type="submit"
          variant="primary"
          disabled={!matching}
          pending={change.isPending}
          aria-describedby={matching ? undefined : 'password-button-why'}
        >
          Update Password
        </Button>
        {matching ? null : (
          <span id="password-button-why" className="muted field-note">
            Enter the new password twice to enable this button.
          </span>
        )}
      </div>
    </form>
  );
}
