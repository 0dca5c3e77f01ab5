/** The shapes of the conversations calls (CONTRACT "Two-way messaging"). */
export type Direction = 'inbound' | 'outbound';

/** The messages exchanged with one remote number, in both directions. */
export interface Conversation {
  /** The remote party's number, digits only. */
  number: string;
  lastMessageAt: string;
  lastBody: string;
  lastDirection: Direction;
  inboundCount: number;
  outboundCount: number;
  /** The number opted out of this client's messages: sends to it are refused. */
  optedOut: boolean;
}

export interface ConversationList {
  total: number;
  count: number;
  offset: number;
  conversations: Conversation[];
}

/** One message of a thread: an inbound message, or a message the client sent. */
export interface ThreadItem {
  direction: Direction;
  id: string;
  body: string;
  /** A sent message's state (DELIVERED …); an inbound message has none to speak of. */
  state: string | null;
  date: string;
}

export interface Thread {
  number: string;
  optedOut: boolean;
  total: number;
  count: number;
  offset: number;
  /** Oldest first. */
  items: ThreadItem[];
}
