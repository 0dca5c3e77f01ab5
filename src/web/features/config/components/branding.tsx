import { Skeleton } from '../../../components/ui/spinner';
import { useConfig } from '../api/get-config';
import './branding.css';

/** The product name, with a placeholder of the same size while it loads. */
export function ProductName() {
  const config = useConfig();
  if (config.data) return <>{config.data.productName}</>;
  if (config.isPending) return <Skeleton width="8em" />;
  return null;
}

/** The footer text of both shells and the public screens. */
export function PoweredBy() {
  const config = useConfig();
  return (
    <p className="powered-by">
      Powered by{' '}
      {config.data ? (
        <span className="provider-name">{config.data.providerName}</span>
      ) : (
        <Skeleton width="6em" />
      )}
    </p>
  );
}
