import type { Client } from '../../../../shared/schemas/clients';
import { EditableCard } from '../../../components/ui/editable-card';
import { usePanel } from '../../../components/ui/side-panel';
import { formatDate } from '../../clients/components/client-card';
import { ClientNameForm } from '../../clients/components/client-name-form';

/** The Client card of the admin client page; a click opens the edit panel (spec §2). */
export function AdminClientCard({ client }: { client: Client }) {
  const panel = usePanel();
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
      ]}
      onEdit={() =>
        panel.showPanel(
          <ClientNameForm client={client} asAdmin onDone={panel.closePanel} />,
          { title: 'Edit Client' },
        )
      }
    />
  );
}
