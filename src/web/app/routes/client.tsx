import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { paths } from '../../config/paths';
import { ClientDetail } from '../../features/clients/components/client-detail';

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
      />
    </div>
  );
}
