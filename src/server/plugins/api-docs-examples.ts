/**
 * Examples of the OpenAPI description: by component (every answer that uses it shows it) and by
 * operationId for request bodies and answers that are not components. The lint test (Redocly's
 * no-invalid-media-type-examples) checks each against its schema, and that every request body and
 * 2xx answer has one. A schema's own `.meta({ examples })` wins over these.
 */

const CLIENT_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const USER_ID = '3f2a9c4e-8b1d-4e6f-a2c5-7d9e0b1f4a6c';
const MESSAGE_ID = '0b8e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b';
const BATCH_ID = '9a7b6c5d-4e3f-4a1b-8c9d-0e1f2a3b4c5d';
const SPLIT_ID = '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a';
const ROLE_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const AT = '2026-11-28T09:00:00.000Z';
const LATER = '2026-11-28T09:00:02.000Z';

const user = {
  id: USER_ID,
  firstName: 'Ada',
  lastName: 'Lovelace',
  organization: 'Analytical Engines',
  email: 'ada@example.com',
  dateCreated: AT,
  dateUpdated: AT,
};
const client = {
  id: CLIENT_ID,
  userId: USER_ID,
  name: 'Shop',
  dateCreated: AT,
  dateUpdated: AT,
  secretLastUsedAt: LATER,
  allowedPrefixes: null,
  maxMessagesPerSecond: null,
};
const message = {
  id: MESSAGE_ID,
  clientId: CLIENT_ID,
  sender: 'Shop',
  recipient: '447700900123',
  body: 'Your order has shipped',
  reference: 'order-1042',
  state: 'ACCEPTED',
  deliveryMethod: null,
  simulated: false,
  encoding: 'GSM-7',
  segments: 1,
  price: 0.05,
  pricePerSegment: 0.05,
  pricePrefix: '44',
  currency: 'EUR',
  batchId: null,
  sendAt: null,
  dateCreated: AT,
  dateUpdated: AT,
};
const delivered = {
  ...message,
  state: 'DELIVERED',
  deliveryMethod: 'MELROSE_SMPP',
  dateUpdated: LATER,
};
const batch = {
  id: BATCH_ID,
  total: 3,
  amount: 0.15,
  body: 'Your appointment is tomorrow at 10:00',
  sender: 'Shop',
  sendAt: null,
  dateCreated: AT,
  states: { DELIVERED: 2, SUBMITTED: 1 },
};
const balance = {
  id: CLIENT_ID,
  currency: 'EUR',
  amount: 9.95,
  minThreshold: 5,
  dateCreated: AT,
  dateUpdated: LATER,
};
const price = {
  prefix: '44',
  name: 'United Kingdom',
  pricePerSegment: 0.05,
  blocked: false,
};
const split = {
  id: SPLIT_ID,
  userId: USER_ID,
  clientId: CLIENT_ID,
  deliveryMethod: 'MELROSE_SMPP',
  weight: 10,
};
const roles = {
  roles: [
    { id: ROLE_ID, role: 'ROLE_SMS_CREATE' },
    { id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e', role: 'ROLE_USER' },
  ],
};
const profile = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  organization: 'Analytical Engines',
  email: 'ada@example.com',
};
const page = { total: 1, count: 30, offset: 0 };
const phoneNumber = {
  number: '447700900100',
  clientId: CLIENT_ID,
  helpText: 'Shop support: call 0800 123 456. Reply STOP to opt out.',
  dateCreated: AT,
};
const inbound = {
  id: '6e5d4c3b-2a19-4f08-9e7d-6c5b4a392817',
  clientId: CLIENT_ID,
  from: '447700900123',
  to: '447700900100',
  body: 'Can I change the delivery address?',
  encoding: 'GSM-7',
  segments: 1,
  method: 'MELROSE_SMPP',
  complete: true,
  keyword: null,
  dateReceived: LATER,
};
const conversation = {
  number: '447700900123',
  lastMessageAt: LATER,
  lastBody: 'Can I change the delivery address?',
  lastDirection: 'inbound',
  inboundCount: 1,
  outboundCount: 1,
  optedOut: false,
};
const threadItems = [
  {
    direction: 'outbound',
    id: MESSAGE_ID,
    body: 'Your order has shipped',
    state: 'DELIVERED',
    date: AT,
  },
  {
    direction: 'inbound',
    id: inbound.id,
    body: inbound.body,
    state: 'RECEIVED',
    date: LATER,
  },
];

/** By component name. */
export const COMPONENT_EXAMPLES: Record<string, unknown> = {
  Branding: {
    productName: 'Skyline Messaging',
    providerName: 'Skyline Telecom',
    providerShortName: 'Skyline',
    currency: 'EUR',
    smsPrice: '0.05',
  },
  User: user,
  MyUser: { ...user, roles: ['ROLE_USER', 'ROLE_SMS_CREATE'] },
  Client: client,
  ClientWithSecret: {
    ...client,
    secret: 'sk_4f9d2c7e1b8a6053e2d1c0b9a8f7e6d5',
  },
  OwnClient: {
    ...client,
    statusCallbackUrl: 'https://shop.example.com/sms/status',
    statusCallbackSigningKey: 'whk_8e7d6c5b4a3928171605f4e3d2c1b0a9',
  },
  StatusCallbackTest: { ok: true, status: 200, error: null, durationMs: 84 },
  RotatedSigningKey: {
    statusCallbackSigningKey: 'whk_0a1b2c3d4e5f60718293a4b5c6d7e8f9',
  },
  Balance: balance,
  Usage: {
    days: [
      { date: '2026-11-27', messages: 120, segments: 134, amount: 6.7 },
      { date: '2026-11-28', messages: 3, segments: 3, amount: 0.15 },
    ],
  },
  Message: message,
  MessageDetail: {
    ...delivered,
    attempts: [
      {
        method: 'MELROSE_SMPP',
        state: 'DELIVERED',
        providerMessageId: '5f1c0a',
        error: null,
        errorCode: null,
        providerErrorCode: null,
        dateCreated: AT,
      },
    ],
    callbacks: [
      {
        state: 'DELIVERED',
        attempt: 1,
        status: 200,
        error: null,
        dateCreated: LATER,
      },
    ],
  },
  MessageList: { ...page, messages: [delivered] },
  Batch: batch,
  BatchList: { ...page, batches: [batch] },
  CreatedBatch: {
    id: BATCH_ID,
    total: 3,
    amount: 0.15,
    sendAt: null,
    dateCreated: AT,
  },
  RouteSplit: split,
  Price: price,
  PriceList: {
    ...page,
    currency: 'EUR',
    defaultPricePerSegment: 0.05,
    prices: [price],
  },
  Number: phoneNumber,
  NumberList: { ...page, numbers: [phoneNumber] },
  ClientNumbers: { numbers: [phoneNumber] },
  InboundMessage: inbound,
  InboundMessageList: { ...page, messages: [inbound] },
  Conversation: conversation,
  ConversationList: { ...page, conversations: [conversation] },
  ConversationItem: threadItems[1],
  ConversationThread: {
    number: '447700900123',
    optedOut: false,
    total: 2,
    count: 30,
    offset: 0,
    items: threadItems,
  },
  Quote: {
    recipient: '447700900123',
    pricePrefix: '44',
    pricePerSegment: 0.05,
    encoding: 'GSM-7',
    segments: 1,
    amount: 0.05,
    allowed: true,
    reason: null,
  },
  OptOut: { number: '447700900123', source: 'keyword', dateCreated: AT },
  OptOutList: {
    ...page,
    optouts: [{ number: '447700900123', source: 'keyword', dateCreated: AT }],
  },
};

/** By operationId: the request body's example, and the 2xx answer's where it is no component. */
export const OPERATION_EXAMPLES: Record<
  string,
  { request?: unknown; answer?: unknown }
> = {
  getHealth: { answer: { status: 'ok' } },
  getReadiness: { answer: { status: 'ready' } },
  getVersion: {
    answer: {
      version: '0.1.0',
      commit: '6dd5718c0ffee0123456789abcdef0123456789a',
      schemaVersion: '030',
      engine: {
        kind: 'postgres-embedded',
        where: '/srv/console/data/postgres',
      },
    },
  },
  registerUser: { request: { ...profile, password: 'correct-horse-42' } },
  receiveVonageReceipt: { answer: { status: 'taken' } },
  receiveVonageReceiptQuery: { answer: { status: 'taken' } },
  receiveWorldSpecialReceipt: {
    request: { id: '5f1c0a', status: 'delivered' },
    answer: { status: 'taken' },
  },
  receiveVonageInbound: { answer: { status: 'taken' } },
  receiveVonageInboundQuery: { answer: { status: 'taken' } },
  receiveWorldSpecialInbound: {
    request: {
      id: '7a2e91',
      from: '447700900123',
      to: '447700900000',
      text: 'STOP',
    },
    answer: { status: 'taken' },
  },
  updateMe: { request: profile },
  adminUpdateUser: { request: profile },
  changeMyPassword: {
    request: {
      currentPassword: 'correct-horse-42',
      newPassword: 'battery-staple-77',
    },
  },
  createClient: { request: { name: 'Shop' } },
  listClients: { answer: { ...page, clients: [client] } },
  adminListClients: { answer: { ...page, clients: [client] } },
  updateClient: {
    request: { statusCallbackUrl: 'https://shop.example.com/sms/status' },
  },
  resetClientSecret: { request: { graceSeconds: 3600 } },
  adminCreateClient: { request: { userId: USER_ID, name: 'Shop' } },
  adminUpdateClient: { request: { name: 'Shop (EU)' } },
  adminSetClientLimits: {
    request: { allowedPrefixes: ['44', '353'], maxMessagesPerSecond: 20 },
  },
  adminCancelClientMessages: {
    request: { batchId: '0b7f4c1e-5a9d-4e2b-8c3f-6d1a2b3c4d5e' },
    answer: { canceled: 120 },
  },
  adminAddFreeCredit: {
    request: { amount: '25.00', reason: 'Welcome credit' },
  },
  adminUpdateBalance: { request: { minThreshold: '5' } },
  listLedgerEntries: {
    answer: {
      ...page,
      entries: [
        {
          id: '42',
          kind: 'SMS',
          amount: -0.05,
          balanceAfter: 9.95,
          reason: null,
          messageId: MESSAGE_ID,
          recipient: '447700900123',
          segments: 1,
          pricePerSegment: 0.05,
          pricePrefix: '44',
          dateCreated: AT,
        },
      ],
    },
  },
  sendSms: {
    request: {
      sender: 'Shop',
      recipient: '+44 7700 900123',
      body: 'Your order has shipped',
      reference: 'order-1042',
    },
  },
  createBatch: {
    request: {
      recipients: ['447700900123', '447700900124', '447700900125'],
      body: 'Your appointment is tomorrow at 10:00',
      sender: 'Shop',
    },
  },
  adminCreateRouteSplit: {
    request: {
      userId: USER_ID,
      clientId: CLIENT_ID,
      deliveryMethod: 'MELROSE_SMPP',
      weight: 10,
    },
  },
  adminUpdateRouteSplit: {
    request: { deliveryMethod: 'VONAGE_SMS', weight: 25 },
  },
  adminListRouteSplits: {
    answer: {
      ...page,
      routes: [
        { ...split, configuredShare: 1, realisedShare: 1, messages24h: 1200 },
      ],
    },
  },
  adminListUsers: { answer: { ...page, users: [user] } },
  adminListUserRoles: { answer: roles },
  adminAddUserRole: { request: { role: 'ROLE_SMS_CREATE' }, answer: roles },
  adminRemoveUserRole: {
    request: { role: 'ROLE_CLIENT_ADMIN' },
    answer: roles,
  },
  adminListAuditEvents: {
    answer: {
      ...page,
      events: [
        {
          id: '7',
          action: 'client.renamed',
          actorUserId: USER_ID,
          actorEmail: 'ada@example.com',
          targetType: 'client',
          targetId: CLIENT_ID,
          before: { name: 'Shop' },
          after: { name: 'Shop (EU)' },
          ip: '203.0.113.7',
          dateCreated: AT,
        },
      ],
    },
  },
  adminGetOperations: {
    answer: {
      since: '2026-11-28T08:01:00Z',
      queueDepth: 0,
      unrouted: {},
      methods: [
        {
          method: 'MELROSE_SMPP',
          states: { DELIVERED: 118, SUBMITTED: 2 },
          latency: { p50: 0.04, p95: 0.12 },
          bound: true,
          simulated: false,
          perMinute: [2, 0, 3],
          inbound: { lastHour: 4, lastDay: 57 },
        },
      ],
      backup: {
        lastSuccessAt: '2026-11-28T03:00:07Z',
        last: {
          kind: 'scheduled',
          finishedAt: '2026-11-28T03:00:07Z',
          ok: true,
          error: null,
        },
        schedule: { intervalHours: 24, keep: 7 },
      },
    },
  },
  adminSetPrice: {
    request: {
      name: 'United Kingdom',
      pricePerSegment: '0.05',
      blocked: false,
    },
  },
  adminAssignNumber: {
    request: {
      clientId: CLIENT_ID,
      helpText: 'Shop support: call 0800 123 456. Reply STOP to opt out.',
    },
  },
  adminImportPricesCsv: {
    request:
      'prefix,name,pricePerSegment,blocked\n44,United Kingdom,0.05,false\n4479,UK premium,0.5,true\n',
    answer: { count: 2 },
  },
};
