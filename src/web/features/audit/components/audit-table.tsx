import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import type { AuditEvent, AuditFilter } from '../../../../shared/schemas/audit';
import { DataTable } from '../../../components/ui/data-table';
import { paths } from '../../../config/paths';
import { formatDateTime } from '../../../lib/format';
import { useCanCall } from '../../../lib/permissions';
import { useAuditEvents } from '../api/get-audit-events';
import { auditHref } from '../filters';
import './audit.css';

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

/** The fields that changed between before and after, in the order they first appear. */
function changedFields(event: AuditEvent) {
  const before = event.before ?? {};
  const after = event.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return { before, after, fields };
}

/**
 * What changed, on one line: a list as the items it gained and lost (`+ ROLE_X`, `− ROLE_Y`),
 * any other field as `field: before → after` (`field: after` when it is new).
 */
export function changeSummary(event: AuditEvent): string {
  const { before, after, fields } = changedFields(event);
  const parts = fields.flatMap((field) => {
    const old = before[field];
    const now = after[field];
    if (Array.isArray(old) && Array.isArray(now)) {
      return [
        ...now
          .filter((item) => !old.includes(item))
          .map((item) => `+ ${valueText(item)}`),
        ...old
          .filter((item) => !now.includes(item))
          .map((item) => `− ${valueText(item)}`),
      ];
    }
    if (!(field in before)) return [`${field}: ${valueText(now)}`];
    const then = field in after ? valueText(now) : '(removed)';
    return [`${field}: ${valueText(old)} → ${then}`];
  });
  return parts.join('; ');
}

/** Each changed field as `field: before → after` (the log holds only the fields that changed). */
export function AuditChange({ event }: { event: AuditEvent }) {
  const { before, after, fields } = changedFields(event);
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

/**
 * The Change cell: what changed on one line (cut short with an ellipsis when long), and
 * Details, which opens the whole before and after under it.
 */
function ChangeCell({ event }: { event: AuditEvent }) {
  const summary = changeSummary(event);
  if (!summary) return <span className="muted">—</span>;
  return (
    <div className="audit-change">
      <span className="audit-summary" title={summary}>
        {summary}
      </span>
      <details className="audit-details">
        <summary>
          Details
          <span className="sr-only">
            {` of ${event.action} at ${formatDateTime(event.dateCreated)}`}
          </span>
        </summary>
        <AuditChange event={event} />
      </details>
    </div>
  );
}

/** The start of an id, enough to tell rows apart; the whole id is the link's name. */
function shortId(id: string): string {
  return id.length > 8 ? `${id.slice(0, 8)}…` : id;
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
  // A price's id is its prefix, a number's its digits: short, shown whole, and with no page of
  // their own.
  if (event.targetType === 'price' || event.targetType === 'number') {
    return (
      <>
        <span className="muted">{event.targetType}</span>{' '}
        <span className="mono">{targetId}</span>
      </>
    );
  }
  const to = isClient ? paths.adminClient(targetId) : paths.adminUser(targetId);
  return (
    <>
      <span className="muted">{event.targetType}</span>{' '}
      {canOpen ? (
        <Link className="mono" to={to} aria-label={targetId} title={targetId}>
          {shortId(targetId)}
        </Link>
      ) : (
        <span className="mono" title={targetId}>
          {shortId(targetId)}
        </span>
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
  return (
    <DataTable
      query={events}
      rows={(data) => data.events}
      rowKey={(event) => event.id}
      className="audit-table"
      columns={[
        {
          header: 'Time',
          cell: (event) => formatDateTime(event.dateCreated),
          className: 'nowrap',
        },
        {
          header: 'Action',
          cell: (event) => event.action,
          className: 'mono nowrap',
        },
        {
          header: 'Actor',
          className: 'audit-actor',
          cell: (event) => {
            const actor = event.actorEmail ?? event.actorUserId ?? '—';
            return <span title={actor}>{actor}</span>;
          },
        },
        {
          header: 'Target',
          cell: (event) => <Target event={event} />,
          className: 'nowrap',
        },
        {
          header: 'IP',
          cell: (event) => event.ip ?? '—',
          className: 'mono nowrap',
        },
        {
          header: 'Change',
          cell: (event) => <ChangeCell event={event} />,
          className: 'audit-change-cell',
        },
      ]}
      caption={(rows, data) =>
        `Audit events ${offset + 1} to ${offset + rows.length} of ${data.total}`
      }
      loadingLabel="Loading the audit log"
      empty="No events match these filters."
      pager={{
        label: 'Audit log pages',
        offset,
        pageSize: DEFAULT_PAGE_SIZE,
        total: (data) => data.total,
        hrefFor: (to) => auditHref(paths.adminAudit, filter, to),
      }}
    />
  );
}
