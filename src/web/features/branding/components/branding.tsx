import { Skeleton } from '../../../components/ui/spinner';
import { useBranding } from '../api/get-branding';
import './branding.css';

/** The product name, with a placeholder of the same size while it loads. */
export function ProductName() {
  const branding = useBranding();
  if (branding.data) return <>{branding.data.productName}</>;
  if (branding.isPending) return <Skeleton width="8em" />;
  return null;
}

/** The footer text of both shells and the public screens. */
export function PoweredBy() {
  const branding = useBranding();
  return (
    <p className="powered-by">
      Powered by{' '}
      {branding.data ? (
        <span className="provider-name">{branding.data.providerName}</span>
      ) : (
        <Skeleton width="6em" />
      )}
    </p>
  );
}
