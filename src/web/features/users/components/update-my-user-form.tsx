import type { MyUser } from '../../../../shared/schemas/users';
import { Alert } from '../../../components/ui/alert';
import { FormActions } from '../../../components/ui/form-actions';
import { Field } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toaster';
import { useUpdateMe } from '../api/update-me';
import {
  ProfileFields,
  useProfileForm,
} from '../../../components/forms/profile-fields';
import '../../../components/ui/field.css';

/** /users/me: 'Update My User' with a read-only User ID (spec §2). */
export function UpdateMyUserForm({ user }: { user: MyUser }) {
  const update = useUpdateMe();
  const toast = useToast();
  const { form, serverError } = useProfileForm(user, update.error);

  const onSubmit = form.handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: () =>
        toast.show('Your user has been updated', { tone: 'success' }),
    }),
  );

  return (
    <form className="card stack" onSubmit={onSubmit} noValidate>
      <h2 className="section-title">Update My User</h2>
      {serverError ? <Alert tone="danger">{serverError}</Alert> : null}
      <ProfileFields register={form.register} errors={form.formState.errors} />
      <Field
        label="User ID"
        inputProps={{ readOnly: true, value: user.id, className: 'mono' }}
      />
      <FormActions submit="Update" pending={update.isPending} />
    </form>
  );
}
