import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { CreateClientSchema } from '../../../../shared/schemas/clients';
import { Alert } from '../../../components/ui/alert';
import { FormActions } from '../../../components/ui/form-actions';
import { Field } from '../../../components/ui/field';
import { usePanel } from '../../../components/ui/side-panel';

import { useServerError } from '../../../lib/server-errors';
import { useCreateClient } from '../api/create-client';
import { ClientSecret } from './client-secret';
import '../../../components/ui/field.css';

/**
 * The side panel's New Client form; on success the panel shows the secret instead. Given a
 * `userId`, an admin creates the client for that user.
 */
export function CreateClientForm({ userId }: { userId?: string } = {}) {
  const panel = usePanel();
  const creation = useCreateClient();
  const form = useForm<{ name: string }>({
    resolver: zodResolver(CreateClientSchema),
    defaultValues: { name: '' },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const serverError = useServerError(form, creation.error, { name: 'Name' });

  const onSubmit = handleSubmit(({ name }) =>
    creation.mutate(
      { name, userId },
      {
        onSuccess: (client) =>
          panel.showPanel(<ClientSecret client={client} />, {
            title: 'Client created',
          }),
      },
    ),
  );

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      {serverError ? <Alert tone="danger">{serverError}</Alert> : null}
      <Field
        label="Name"
        hint="A name to recognise this client, e.g. the system that sends with it."
        error={errors.name?.message ?? ''}
        inputProps={{ ...register('name'), autoComplete: 'off' }}
      />
      <FormActions submit="Create Client" pending={creation.isPending} />
    </form>
  );
}
