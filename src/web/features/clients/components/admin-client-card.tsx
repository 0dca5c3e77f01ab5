import type { ReactNode } from 'react';
import type {
  Client,
  ClientKeyUsage,
} from '../../../../shared/schemas/clients';
import { EditableCard } from '../../../components/ui/editable-card';
import { usePanel } from '../../../components/ui/side-panel';
import { formatDate, formatLastUsed } from '../../../lib/format';
import { needsRoleText, useCanCall } from '../../../lib/permissions';

/**
 * The Client card of the admin client page; a click opens the edit panel (spec §2) with the
 * form the screen supplies, given how to close the panel.
 */
export function AdminClientCard({
  client,
  editForm,
}: {
  client: Client & Partial<ClientKeyUsage>;
  editForm: (done: () => void) => ReactNode;
}) {
  const panel = usePanel();
  const update = { family: 'CLIENT', verb: 'UPDATE' } as const;
  const canUpdate = useCanCall(update);
  return (
    <EditableCard
      label={`Client ${client.name}: edit`}
      title={<span className="card-title">{client.name}</span>}
      hint="Click to edit"
      details={[
        ['Client ID', client.id, true],
        ['User ID', client.userId, true],
        ['Created', formatDate(client.dateCreated)],
        ['Updated', formatDate(client.dateUpdated)],
        ['Secret last used', formatLastUsed(client.secretLastUsedAt)],
      ]}
      readOnlyReason={canUpdate ? undefined : needsRoleText(update)}
      onEdit={() =>
        panel.showPanel(editForm(panel.closePanel), { title: 'Edit Client' })
      }
    />
  );
}
