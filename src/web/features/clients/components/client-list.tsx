import { Alert } from '../../../components/ui/alert';
import { Skeleton } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-error';
import { useClients } from '../api/get-clients';
import { ClientCardLink } from './client-card';
import './clients.css';

/** The user's clients as cards, each linking to its page. */
export function ClientList({ currentId }: { currentId: string | null }) {
  const clients = useClients();
  if (clients.isPending) {
    return (
      <div className="card-grid">
        <Skeleton height="104px" />
        <Skeleton height="104px" />
      </div>
    );
  }
  if (clients.isError) {
    return (
      <Alert tone="danger">
        {isApiError(clients.error)
          ? clients.error.message
          : 'The server could not be reached.'}
      </Alert>
    );
  }
  if (clients.data.clients.length === 0) {
    return (
      <div className="card empty-state">
        <p className="empty-text">
          You have no clients yet. A client has an id and a secret that your
          systems use to send messages.
        </p>
      </div>
    );
  }
  return (
    <ul className="card-grid plain-list" aria-label="Clients">
      {clients.data.clients.map((client) => (
        <li key={client.id}>
          <ClientCardLink client={client} current={client.id === currentId} />
        </li>
      ))}
    </ul>
  );
}
