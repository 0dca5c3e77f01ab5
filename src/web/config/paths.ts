/** The route table (spec §2): every screen's path, in one place. */
export const paths = {
  login: '/login',
  register: '/register',
  home: '/',
  quickstart: '/quickstart',
  messaging: '/messaging',
  sms: '/messaging/sms',
  messageLog: '/messaging/log',
  /** Bulk send: one body to a list of recipients, and the batches sent so far. */
  bulk: '/messaging/bulk',
  /** A batch's progress by state. */
  batch: (batchId: string) => `/messaging/bulk/${encodeURIComponent(batchId)}`,
  /** The Message Log showing a batch's messages only. */
  batchMessages: (batchId: string) =>
    `/messaging/log?batchId=${encodeURIComponent(batchId)}`,
  /** The Message Log with this message's panel open. */
  message: (messageId: string) =>
    `/messaging/log?message=${encodeURIComponent(messageId)}`,
  billing: '/billing',
  billingBalance: '/billing/balance',
  paymentMethods: '/billing/paymentMethods',
  /** The price of each destination, in the balance's currency (issue 19). */
  billingPrices: '/billing/prices',
  myUser: '/users/me',
  changePassword: '/users/me/password',
  clients: '/clients',
  client: (clientId: string) => `/clients/${encodeURIComponent(clientId)}`,
  admin: '/admin',
  adminClients: '/admin/clients',
  adminClient: (clientId: string) =>
    `/admin/clients/${encodeURIComponent(clientId)}`,
  adminUsers: '/admin/users',
  adminUser: (userId: string) => `/admin/users/${encodeURIComponent(userId)}`,
  adminAudit: '/admin/audit',
  adminOperations: '/admin/operations',
  adminPrices: '/admin/prices',
} as const;
