import { paths } from './paths';

/** A sidebar entry (spec §3): a link (url), a message (alert), a group, or a widget slot. */
export type NavItem =
  | { type: 'item'; name: string; url?: string; alert?: string }
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

/** The admin sidebar (spec §2): Pricing has no link and no screen. */
export const adminNav: NavItem[] = [
  { type: 'item', name: 'Clients', url: paths.adminClients },
  { type: 'item', name: 'Users', url: paths.adminUsers },
  { type: 'item', name: 'Pricing' },
];
