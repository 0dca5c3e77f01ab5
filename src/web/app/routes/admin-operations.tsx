import { PageHeader } from '../../components/ui/page-header';
import { OperationsOverview } from '../../features/operations/components/operations-overview';

/** /admin/operations: live delivery health per method (ROLE_OPERATIONS_VIEW). */
export function AdminOperationsRoute() {
  return (
    <>
      <PageHeader
        title="Operations"
        description="Delivery right now: the last hour per delivery method, the queue and the binds. Refreshes every few seconds."
      />
      <OperationsOverview />
    </>
  );
}
