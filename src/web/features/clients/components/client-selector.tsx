import type { Client } from '../../../../shared/schemas/clients';
import { SelectBox } from '../../../components/ui/select-box';
import { Skeleton } from '../../../components/ui/spinner';
import './clients.css';

/** The navbar's client selector: disabled with 'No client' when the user has none. */
export function ClientSelector({
  clients,
  currentId,
  loading,
  onSelect,
}: {
  clients: Client[];
  currentId: string | null;
  loading: boolean;
  onSelect: (clientId: string) => void;
}) {
  if (loading) return <Skeleton width="10em" height="var(--control-height)" />;
  return (
    <SelectBox
      className="client-selector"
      label="Client"
      labelClassName="navbar-label"
      options={clients.map((client) => ({ key: client.id, text: client.name }))}
      value={currentId ?? ''}
      onChange={onSelect}
      disabled={clients.length === 0}
      emptyText="No client"
    />
  );
}
