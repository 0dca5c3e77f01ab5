import { PageHeader } from '../../components/ui/page-header';
import { ChangePasswordForm } from '../../features/users/components/change-password-form';

export function ChangePasswordRoute() {
  return (
    <div className="page-narrow">
      <PageHeader title="Change Password" />
      <ChangePasswordForm />
    </div>
  );
}
