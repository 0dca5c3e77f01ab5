import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { offsetParam } from '../../components/ui/pager';
import { paths } from '../../config/paths';
import { AuditFilters } from '../../features/audit/components/audit-filters';
import { AuditTable } from '../../features/audit/components/audit-table';
import { auditHref, filterFromParams } from '../../features/audit/filters';

/** /admin/audit: who did what to which client or user, with filters and paging in the URL. */
export function AdminAuditRoute() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const filter = filterFromParams(search);
  return (
    <>
      <PageHeader
        title="Audit Log"
        description="Every privileged or security-relevant action: who, from where, on what, and what changed."
      />
      <AuditFilters
        value={filter}
        onApply={(chosen) => navigate(auditHref(paths.adminAudit, chosen))}
      />
      <AuditTable filter={filter} offset={offsetParam(search.get('offset'))} />
    </>
  );
}
