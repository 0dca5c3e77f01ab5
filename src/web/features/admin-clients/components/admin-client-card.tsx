import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import {
  UpdateClientSchema,
  type Client,
} from '../../../../shared/schemas/clients';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { usePanel } from '../../../components/ui/side-panel';
import { useToast } from '../../../components/ui/toaster';
import { errorText } from '../../../lib/api-error';
import { formatDate } from '../../clients/components/client-card';
import { useUpdateAdminClient } from '../api/update-admin-client';

/** The Client card of the admin client page; a click opens the edit panel (spec §2). */
export function AdminClientCard({ client }: { client: Client }) {
  const panel = usePanel();
  return (
    <button
      type="button"
      className="card card-link"
      aria-label={`Client ${client.name}: edit`}
      onClick={() =>
        panel.showPanel(
          <AdminClientForm client={client} onDone={panel.closePanel} />,
          { title: 'Edit Client' },
        )
      }
    >
      <span className="row">
        <span className="card-title">{client.name}</span>
        <span className="muted edit-hint">Click to edit</span>
      </span>
      <span className="details">
        <span className="dt">Client ID</span>
        <span className="dd mono">{client.id}</span>
        <span className="dt">User ID</span>
        <span className="dd mono">{client.userId}</span>
        <span className="dt">Created</span>
        <span className="dd">{formatDate(client.dateCreated)}</span>
        <span className="dt">Updated</span>
        <span className="dd">{formatDate(client.dateUpdated)}</span>
      </span>
    </button>
  );
}

export function AdminClientForm({
  client,
  onDone,
}: {
  client: Client;
  onDone: () => void;
}) {
  const toast = useToast();
  const update = useUpdateAdminClient();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ name: string }>({
    resolver: zodResolver(UpdateClientSchema),
    defaultValues: { name: client.name },
  });

  const onSubmit = handleSubmit(({ name }) =>
    update.mutate(
      { clientId: client.id, name },
      {
        onSuccess: () => {
          onDone();
          toast.show('The client has been updated', { tone: 'success' });
        },
      },
    ),
  );

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      {update.error ? (
        <Alert tone="danger">{errorText(update.error)}</Alert>
      ) : null}
      <Field
        label="Name"
        error={errors.name?.message ?? ''}
        inputProps={{ ...register('name'), autoComplete: 'off' }}
      />
      <div className="form-actions-inline">
        <Button type="submit" variant="primary" pending={update.isPending}>
          Update
        </Button>
        <Button onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
