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
  /** Conversations with the numbers that wrote to the client's numbers, newest first (issue 32). */
  inbox: '/messaging/inbox',
  /** One conversation: both directions, oldest first, and the reply box. */
  conversation: (number: string) =>
    `/messaging/inbox/${encodeURIComponent(number)}`,
  /** The recipients that opted out of the client's messages (issue 32). */
  optouts: '/messaging/optouts',
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
  /** Inbound numbers and the clients holding them (issue 32). */
  adminNumbers: '/admin/numbers',
  /** The Numbers screen showing one client's numbers, with that client in the assign form. */
  adminClientNumbers: (clientId: string) =>
    `/admin/numbers?clientId=${encodeURIComponent(clientId)}`,
} as const;
