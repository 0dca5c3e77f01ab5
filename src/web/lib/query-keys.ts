/**
 * Every React Query key of the console, in one tree. Keys are hierarchical so a mutation can
 * invalidate a whole family (`clients.all` covers each list and detail), and a feature that
 * must refresh another feature's data (free credit → the customer's balance widget) names it
 * here instead of copying its literal key.
 */
export const queryKeys = {
  me: ['users', 'me'] as const,
  clients: {
    all: ['clients'] as const,
    list: ['clients', 'list'] as const,
    detail: (clientId: string) => ['clients', 'detail', clientId] as const,
  },
  balances: {
    all: ['balances'] as const,
    default: (clientId: string) => ['balances', 'default', clientId] as const,
    ledger: (clientId: string, query: object) =>
      ['balances', 'ledger', clientId, query] as const,
    usage: (clientId: string, query: object) =>
      ['balances', 'usage', clientId, query] as const,
  },
  /** The price list (any signed-in user reads it; staff change it). */
  prices: {
    all: ['prices'] as const,
    list: (query: object) => ['prices', 'list', query] as const,
    /** Every entry at once, to group a bulk send's recipients by destination. */
    entries: ['prices', 'entries'] as const,
  },
  /** What a send would cost and whether it is allowed (recipient and body in `query`). */
  quote: (clientId: string, query: object) =>
    ['quote', clientId, query] as const,
  /** A client's messages; staff's copies start with 'admin' so they never mix with the owner's. */
  messages: {
    ofClient: (clientId: string) => ['messages', clientId] as const,
    list: (clientId: string, asAdmin: boolean, params: object) =>
      [
        ...(asAdmin ? ['admin'] : []),
        'messages',
        clientId,
        'list',
        params,
      ] as const,
    detail: (clientId: string, messageId: string, asAdmin = false) =>
      [
        ...(asAdmin ? ['admin'] : []),
        'messages',
        clientId,
        'detail',
        messageId,
      ] as const,
  },
  /** A client's batches (bulk sends) and their progress. */
  batches: {
    ofClient: (clientId: string) => ['batches', clientId] as const,
    list: (clientId: string, offset: number) =>
      ['batches', clientId, 'list', offset] as const,
    detail: (clientId: string, batchId: string) =>
      ['batches', clientId, 'detail', batchId] as const,
  },
  /** A client's inbound numbers; staff's copies start with 'admin' (issue 32). */
  numbers: {
    ofClient: (clientId: string, asAdmin = false) =>
      [...(asAdmin ? ['admin'] : []), 'numbers', 'client', clientId] as const,
  },
  /**
   * A client's conversations and their threads: a send or an inbound message changes both.
   * Staff's copies start with 'admin' so they never mix with the owner's.
   */
  conversations: {
    ofClient: (clientId: string) => ['conversations', clientId] as const,
    list: (clientId: string, query: object, asAdmin = false) =>
      [
        ...(asAdmin ? ['admin'] : []),
        'conversations',
        clientId,
        'list',
        query,
      ] as const,
    thread: (
      clientId: string,
      number: string,
      shown: number,
      asAdmin = false,
    ) =>
      [
        ...(asAdmin ? ['admin'] : []),
        'conversations',
        clientId,
        'thread',
        number,
        shown,
      ] as const,
  },
  /** A client's opt-outs (issue 32). */
  optouts: {
    ofClient: (clientId: string) => ['optouts', clientId] as const,
    list: (clientId: string, offset: number) =>
      ['optouts', clientId, 'list', offset] as const,
  },
  admin: {
    clients: {
      all: ['admin', 'clients'] as const,
      list: (query: object) => ['admin', 'clients', 'list', query] as const,
      detail: (clientId: string) =>
        ['admin', 'clients', 'detail', clientId] as const,
    },
    balance: (clientId: string) =>
      ['admin', 'balances', 'default', clientId] as const,
    users: {
      lists: ['admin', 'users', 'list'] as const,
      list: (offset: number, q = '') =>
        ['admin', 'users', 'list', offset, q] as const,
      detail: (userId: string) => ['admin', 'users', 'detail', userId] as const,
      roles: (userId: string) => ['admin', 'users', 'roles', userId] as const,
    },
    audit: (query: object) => ['admin', 'audit', 'list', query] as const,
    operations: ['admin', 'operations'] as const,
    routeSplits: (clientId: string) =>
      ['admin', 'routes', 'split', clientId] as const,
    /** Every number, or those matching the query (`q`, `clientId`, `offset`). */
    numbers: {
      all: ['admin', 'numbers'] as const,
      list: (query: object) => ['admin', 'numbers', 'list', query] as const,
    },
  },
};
