import {
  UpdateClientSchema,
  type Client,
} from '../../../../shared/schemas/clients';
import { Alert } from '../../../components/ui/alert';
import { FormActions } from '../../../components/ui/form-actions';
import { Field } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toaster';
import { useEditForm } from '../../../lib/use-edit-form';
import { cx } from '../../../lib/cx';
import { useUpdateClient } from '../api/update-client';
import '../../../components/ui/field.css';

/**
 * Renames a client: Update or Cancel (spec §2), Escape cancels. The customer edits in place of
 * the card; an admin (`asAdmin`) in the side panel.
 */
export function ClientNameForm({
  client,
  onDone,
  asAdmin = false,
  className,
}: {
  client: Client;
  onDone: () => void;
  asAdmin?: boolean;
  className?: string;
}) {
  const toast = useToast();
  const update = useUpdateClient();
  // The card was clicked to edit the name: the field takes the focus, its text selected.
  const { form, serverError } = useEditForm({
    schema: UpdateClientSchema,
    defaultValues: { name: client.name },
    focus: 'name',
    selectOnFocus: true,
    error: update.error,
    labels: { name: 'Name' },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;

  const onSubmit = handleSubmit(({ name }) =>
    update.mutate(
      { clientId: client.id, name, asAdmin },
      {
        onSuccess: () => {
          onDone();
          toast.show('The client has been updated', { tone: 'success' });
        },
      },
    ),
  );

  return (
    <form className={cx('stack', className)} onSubmit={onSubmit} noValidate>
      {serverError ? <Alert tone="danger">{serverError}</Alert> : null}
      <Field
        label="Name"
        error={errors.name?.message ?? ''}
        inputProps={{
          ...register('name'),
          autoComplete: 'off',
          onKeyDown: (event) => {
            if (event.key === 'Escape') onDone();
          },
        }}
      />
      <FormActions
        submit="Update"
        pending={update.isPending}
        onCancel={onDone}
      />
    </form>
  );
}
