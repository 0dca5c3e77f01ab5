import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { paths } from '../../config/paths';
import { ClientDetail } from '../../features/clients/components/client-detail';
import { ClientNumbersCard } from '../../features/numbers/components/client-numbers-card';

export function ClientRoute() {
  const { clientId = '' } = useParams();
  const navigate = useNavigate();
  return (
    <div className="page-narrow">
      <PageHeader title="My Client" />
      <ClientDetail
        key={clientId}
        clientId={clientId}
        onDeleted={() => navigate(paths.clients, { replace: true })}
        sections={<ClientNumbersCard clientId={clientId} />}
      />
    </div>
  );
}
