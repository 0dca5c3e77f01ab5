import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { paths } from '../../../config/paths';
import { isApiError } from '../../../lib/api-error';
import { setAuthNotice } from '../../../lib/auth-notice';
import { clearCredentials } from '../../../lib/credentials';
import { useChangePassword } from '../api/change-password';

export const INVALID_NEW_PASSWORD = 'Invalid new password. Please try again';
export const INVALID_CURRENT_PASSWORD =
  'Invalid current password. Please try again.';
export const PASSWORD_CHANGED =
  'Password changed successfully. Please login again with the new password.';

interface Values {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

function failureText(error: unknown): string {
  if (isApiError(error, 400)) return INVALID_NEW_PASSWORD;
  if (isApiError(error, 422)) return INVALID_CURRENT_PASSWORD;
  if (isApiError(error)) return error.message;
  return 'The server could not be reached. Please try again.';
}

/**
 * /users/me/password (spec §2, §8): Update Password stays disabled until the new password and
 * its confirmation are equal; success logs out and asks for a login with the new password.
 */
export function ChangePasswordForm() {
  const navigate = useNavigate();
  const change = useChangePassword();
  const { register, handleSubmit, control } = useForm<Values>({
    defaultValues: {
      currentPassword: '',
      newPassword: '',
      confirmPassword: '',
    },
  });
  const [newPassword, confirmPassword] = useWatch({
    control,
    name: ['newPassword', 'confirmPassword'],
  });
  const matching = newPassword !== '' && newPassword === confirmPassword;

  const onSubmit = handleSubmit(({ currentPassword, newPassword: next }) => {
    if (!matching) return;
    change.mutate(
      { currentPassword, newPassword: next },
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
      <Field
        label="Current Password"
        inputProps={{
          ...register('currentPassword'),
          type: 'password',
          autoComplete: 'current-password',
        }}
      />
      <Field
        label="New Password"
        hint="8 to 128 characters."
        inputProps={{
          ...register('newPassword'),
          type: 'password',
          autoComplete: 'new-password',
        }}
      />
      <Field
        label="Confirm New Password"
        error={
          confirmPassword !== '' && !matching
            ? 'The new password and its confirmation differ.'
            : ''
        }
        inputProps={{
          ...register('confirmPassword'),
          type: 'password',
          autoComplete: 'new-password',
        }}
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
