import { canCall } from '../../shared/roles';
import type { Access } from '../lib/permissions';
import { paths } from './paths';

/**
 * A sidebar entry (spec §3): a link (url), a message (alert), a group, or a widget slot. An item
 * with `access` is shown only to a user whose roles grant it: its screen's first call needs it.
 */
export type NavItem =
  | {
      type: 'item';
      name: string;
      url?: string;
      alert?: string;
      access?: Access;
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

/**
 * The admin sidebar (spec §2): Pricing has no link and no screen (the price list by destination
 * of issue 19 is Prices); the other entries show to the roles that list what their screen lists.
 */
export const adminNav: NavItem[] = [
  {
    type: 'item',
    name: 'Clients',
    url: paths.adminClients,
    access: { family: 'CLIENT', verb: 'LIST' },
  },
  {
    type: 'item',
    name: 'Users',
    url: paths.adminUsers,
    access: { family: 'USER', verb: 'LIST' },
  },
  {
    type: 'item',
    name: 'Audit Log',
    url: paths.adminAudit,
    access: { family: 'AUDIT', verb: 'LIST' },
  },
  {
    type: 'item',
    name: 'Operations',
    url: paths.adminOperations,
    access: { family: 'OPERATIONS', verb: 'VIEW' },
  },
  {
    type: 'item',
    name: 'Prices',
    url: paths.adminPrices,
    access: { family: 'PRICE', verb: 'ADMIN' },
  },
  {
    type: 'item',
    name: 'Numbers',
    url: paths.adminNumbers,
    access: { family: 'NUMBER', verb: 'ADMIN' },
  },
  { type: 'item', name: 'Pricing' },
];

/** The items `roles` may see: those without `access`, and those the roles grant. */
export function visibleNav(
  items: readonly NavItem[],
  roles: readonly string[],
): NavItem[] {
  return items.filter(
    (item) =>
      item.type !== 'item' ||
      !item.access ||
      canCall(roles, item.access.family, item.access.verb),
  );
}
