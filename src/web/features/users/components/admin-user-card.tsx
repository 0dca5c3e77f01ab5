import type { User } from '../../../../shared/schemas/users';
import { Alert } from '../../../components/ui/alert';
import { FormActions } from '../../../components/ui/form-actions';
import { EditableCard } from '../../../components/ui/editable-card';
import { usePanel } from '../../../components/ui/side-panel';
import { useToast } from '../../../components/ui/toaster';
import { formatDate } from '../../../lib/format';
import {
  ProfileFields,
  useProfileForm,
} from '../../../components/forms/profile-fields';
import { useUpdateAdminUser } from '../api/update-admin-user';
import { displayName } from './admin-user-table';
import { needsRoleText, useCanCall } from '../../../lib/permissions';
import '../../../components/ui/field.css';

/** The user card of the admin user page; a click opens the edit panel (spec §2). */
export function AdminUserCard({ user }: { user: User }) {
  const panel = usePanel();
  const update = { family: 'USER', verb: 'UPDATE' } as const;
  const canUpdate = useCanCall(update);
  return (
    <EditableCard
      label={`User ${displayName(user)}: edit`}
      title={<span className="card-title">{displayName(user)}</span>}
      hint="Click to edit"
      details={[
        ['Email', user.email],
        ['Organization', user.organization || '—'],
        ['User ID', user.id, true],
        ['Created', formatDate(user.dateCreated)],
      ]}
      readOnlyReason={canUpdate ? undefined : needsRoleText(update)}
      onEdit={() =>
        panel.showPanel(
          <AdminUserForm user={user} onDone={panel.closePanel} />,
          { title: 'Edit User' },
        )
      }
    />
  );
}

function AdminUserForm({ user, onDone }: { user: User; onDone: () => void }) {
  const toast = useToast();
  const update = useUpdateAdminUser();
  const { form, serverError } = useProfileForm(user, update.error);

  const onSubmit = form.handleSubmit((values) =>
    update.mutate(
      { userId: user.id, ...values },
      {
        onSuccess: () => {
          onDone();
          toast.show('The user has been updated', { tone: 'success' });
        },
      },
    ),
  );

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      {serverError ? <Alert tone="danger">{serverError}</Alert> : null}
      <ProfileFields register={form.register} errors={form.formState.errors} />
      <FormActions
        submit="Update"
        pending={update.isPending}
        onCancel={onDone}
      />
    </form>
  );
}
