import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import type { AuditEvent, AuditFilter } from '../../../../shared/schemas/audit';
import { Alert } from '../../../components/ui/alert';
import { Pager } from '../../../components/ui/pager';
import { TableSkeleton } from '../../../components/ui/table-skeleton';
import { paths } from '../../../config/paths';
import { errorText } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useCanCall } from '../../../lib/permissions';
import { useAuditEvents } from '../api/get-audit-events';
import { auditHref } from '../filters';
import './audit.css';
import '../../../components/ui/table.css';

/** A changed value as text: lists joined, nothing as an em dash. */
function valueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) {
    return value.length ? value.map(valueText).join(', ') : '(none)';
  }
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'string') return value;
  return String(value);
}

/** Each changed field as `field: before → after` (the log holds only the fields that changed). */
export function AuditChange({ event }: { event: AuditEvent }) {
  const before = event.before ?? {};
  const after = event.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  if (fields.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="audit-diff">
      {fields.map((field) => (
        <li key={field}>
          <span className="audit-field">{field}</span>:{' '}
          {field in before ? (
            <>
              <del>{valueText(before[field])}</del>
              {' → '}
            </>
          ) : null}
          <ins>{field in after ? valueText(after[field]) : '(removed)'}</ins>
        </li>
      ))}
    </ul>
  );
}

function Target({ event }: { event: AuditEvent }) {
  const { targetId } = event;
  const isClient = event.targetType === 'client';
  // Linked only when the reader may open it: a refused page load would log them out.
  const canOpen = useCanCall({
    family: isClient ? 'CLIENT' : 'USER',
    verb: 'VIEW',
  });
  // A throttled login for an unknown e-mail has no target to link to.
  if (targetId === null) {
    return <span className="muted">{event.targetType}</span>;
  }
  const to = isClient ? paths.adminClient(targetId) : paths.adminUser(targetId);
  return (
    <>
      <span className="muted">{event.targetType}</span>{' '}
      {canOpen ? (
        <Link className="mono" to={to}>
          {targetId}
        </Link>
      ) : (
        <span className="mono">{targetId}</span>
      )}
    </>
  );
}

/** The audit log, newest first, 30 a page, with the filters of the URL. */
export function AuditTable({
  filter,
  offset,
}: {
  filter: AuditFilter;
  offset: number;
}) {
  const events = useAuditEvents({ ...filter, offset });

  if (events.isPending) return <TableSkeleton label="Loading the audit log" />;
  if (events.isError) {
    return <Alert tone="danger">{errorText(events.error)}</Alert>;
  }
  const { events: rows, total } = events.data;
  if (rows.length === 0) {
    return (
      <div className="card empty-state">
        <p className="empty-text">No events match these filters.</p>
      </div>
    );
  }
  return (
    <div className="stack-sm">
      <div className="table-wrap card">
        <table className="table" aria-busy={events.isPlaceholderData}>
          <caption className="sr-only">
            Audit events {offset + 1} to {offset + rows.length} of {total}
          </caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Action</th>
              <th scope="col">Actor</th>
              <th scope="col">Target</th>
              <th scope="col">IP</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((event) => (
              <tr key={event.id}>
                <td className="nowrap">{formatDateTime(event.dateCreated)}</td>
                <td className="mono nowrap">{event.action}</td>
                <td>{event.actorEmail ?? event.actorUserId ?? '—'}</td>
                <td>
                  <Target event={event} />
                </td>
                <td className="mono nowrap">{event.ip ?? '—'}</td>
                <td>
                  <AuditChange event={event} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager
        label="Audit log pages"
        offset={offset}
        shown={rows.length}
        total={total}
        pageSize={DEFAULT_PAGE_SIZE}
        hrefFor={(to) => auditHref(paths.adminAudit, filter, to)}
      />
    </div>
  );
}
