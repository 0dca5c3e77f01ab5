import {
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditFilter,
} from '../../../shared/schemas/audit';

/** URL parameter of each filter: short, readable links to share a view of the log. */
const PARAMS = {
  action: 'action',
  actorUserId: 'actor',
  targetId: 'target',
  since: 'since',
  until: 'until',
} as const satisfies Record<keyof AuditFilter, string>;

const isAction = (value: string): value is AuditAction =>
  (AUDIT_ACTIONS as readonly string[]).includes(value);

/** The filters a URL carries; an unknown action is no filter rather than an error. */
export function filterFromParams(params: URLSearchParams): AuditFilter {
  const action = params.get(PARAMS.action) ?? '';
  return {
    action: isAction(action) ? action : '',
    actorUserId: params.get(PARAMS.actorUserId) ?? '',
    targetId: params.get(PARAMS.targetId) ?? '',
    since: params.get(PARAMS.since) ?? '',
    until: params.get(PARAMS.until) ?? '',
  };
}

/** `path?action=…&offset=n` with only the filters that are set. */
export function auditHref(
  path: string,
  filter: AuditFilter,
  offset = 0,
): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(PARAMS) as (keyof AuditFilter)[]) {
    const value = filter[key].trim();
    if (value) params.set(PARAMS[key], value);
  }
  if (offset > 0) params.set('offset', String(offset));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
