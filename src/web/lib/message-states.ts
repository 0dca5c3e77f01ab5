/**
 * How a message or attempt state is shown wherever states show (the log's badges, its filter,
 * a batch's progress): its words and its tone (colour by meaning, never the only sign).
 */
export type StateTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

const STATE_LOOK: Record<string, { text: string; tone: StateTone }> = {
  // Paid and held until its sendAt.
  SCHEDULED: { text: 'Scheduled', tone: 'info' },
  ACCEPTED: { text: 'Accepted', tone: 'neutral' },
  SUBMITTED: { text: 'Submitted', tone: 'info' },
  DELIVERED: { text: 'Delivered', tone: 'success' },
  UNDELIVERED: { text: 'Undelivered', tone: 'warning' },
  EXPIRED: { text: 'Expired', tone: 'warning' },
  REJECTED: { text: 'Rejected', tone: 'danger' },
  FAILED: { text: 'Failed', tone: 'danger' },
  // Cancelled before its sendAt, and refunded.
  CANCELED: { text: 'Canceled', tone: 'neutral' },
  // An attempt only: the method was out of reach and the message waits for it.
  UNAVAILABLE: { text: 'Waiting for provider', tone: 'warning' },
};

/** The words and tone of a state; an unknown state is shown as sent, neutral. */
export function stateLook(state: string): { text: string; tone: StateTone } {
  return STATE_LOOK[state] ?? { text: state, tone: 'neutral' };
}

/** The words a state is shown with ('Delivered'). */
export function stateText(state: string): string {
  return stateLook(state).text;
}
