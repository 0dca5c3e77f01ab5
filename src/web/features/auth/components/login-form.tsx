import type { FormEvent, ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import {
  EmailField,
  PasswordField,
} from '../../../components/forms/credential-fields';
import { paths } from '../../../config/paths';
import { clearAuthNotice, useAuthNotice } from '../../../lib/auth-notice';
import { saveCredentials } from '../../../lib/credentials';
import {
  forgetUserData,
  useQueryClientSlot,
} from '../../../lib/query-client-slot';
import './auth.css';
import '../../../components/ui/field.css';

/**
 * Login only stores the credentials and goes to / (spec §4): the first call of the shell
 * checks them, and a refusal comes back here with a notice saying so. The form checks nothing
 * itself (spec §5), so it reads its two fields when submitted: the login page, the first
 * screen of most visits, loads neither react-hook-form nor a schema library for it.
 */
export function LoginForm({ productName }: { productName: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClientSlot();
  const notice = useAuthNotice();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = new FormData(event.currentTarget);
    saveCredentials({
      email: String(values.get('email') ?? ''),
      password: String(values.get('password') ?? ''),
    });
    clearAuthNotice();
    // Whatever the previous user left in the cache must not show to this one.
    forgetUserData(queryClient);
    navigate(paths.home);
  };

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <h1 className="auth-title">Login to {productName}</h1>
      {notice ? (
        <Alert
          tone={notice.tone === 'error' ? 'danger' : 'success'}
          role={notice.tone === 'error' ? 'alert' : 'status'}
          onDismiss={clearAuthNotice}
        >
          {notice.text}
        </Alert>
      ) : null}
      <EmailField field={{ name: 'email' }} autoComplete="username" />
      <PasswordField
        label="Password"
        field={{ name: 'password' }}
        autoComplete="current-password"
      />
      <div className="form-actions">
        <Button type="submit" variant="primary" className="btn-block">
          Login
        </Button>
        <Button
          variant="ghost"
          className="btn-block"
          onClick={() => navigate(paths.register)}
        >
          Register new user
        </Button>
      </div>
    </form>
  );
}
