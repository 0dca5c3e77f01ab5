import { AUDIT_LIST_ROLE } from '../../shared/roles';
import { paths } from './paths';

/**
 * A sidebar entry (spec §3): a link (url), a message (alert), a group, or a widget slot. An item
 * with `roles` is shown only to a user holding one of them.
 */
export type NavItem =
  | {
      type: 'item';
      name: string;
      url?: string;
      alert?: string;
      roles?: readonly string[];
    }
  | { type: 'expand'; name: string; url: string; children: NavItem[] }
  | { type: 'component'; name: string };

export const NOT_AVAILABLE =
  'Sorry, this is not available yet and will be coming soon.';

/** The customer sidebar: balance widget on top, then the items of spec §2. */
export const customerNav: NavItem[] = [
  { type: 'component', name: 'balance' },
  { type: 'item', name: 'Quick Start', url: paths.quickstart },
  { type: 'item', name: 'Messaging', url: paths.messaging },
  {
    type: 'expand',
    name: 'Billing',
    url: paths.billing,
    children: [
      { type: 'item', name: 'Balance', url: paths.billingBalance },
      { type: 'item', name: 'Payment Methods', url: paths.paymentMethods },
    ],
  },
  { type: 'item', name: 'Insights', alert: NOT_AVAILABLE },
];

/** The admin sidebar (spec §2): Pricing has no link and no screen; Audit Log needs its role. */
export const adminNav: NavItem[] = [
  { type: 'item', name: 'Clients', url: paths.adminClients },
  { type: 'item', name: 'Users', url: paths.adminUsers },
  {
    type: 'item',
    name: 'Audit Log',
    url: paths.adminAudit,
    roles: [AUDIT_LIST_ROLE],
  },
  { type: 'item', name: 'Pricing' },
];

/** The items `roles` may see: those without `roles`, and those whose roles the user holds. */
export function visibleNav(
  items: readonly NavItem[],
  roles: readonly string[],
): NavItem[] {
  return items.filter(
    (item) =>
      item.type !== 'item' ||
      !item.roles ||
      item.roles.some((role) => roles.includes(role)),
  );
}
