import { cx } from '../../../lib/cx';
import { isInFlight } from '../message-log-model';
import './message-log.css';

type BadgeTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

const STATE_LOOK: Record<string, { text: string; tone: BadgeTone }> = {
  ACCEPTED: { text: 'Accepted', tone: 'neutral' },
  SUBMITTED: { text: 'Submitted', tone: 'info' },
  DELIVERED: { text: 'Delivered', tone: 'success' },
  UNDELIVERED: { text: 'Undelivered', tone: 'warning' },
  EXPIRED: { text: 'Expired', tone: 'warning' },
  REJECTED: { text: 'Rejected', tone: 'danger' },
  FAILED: { text: 'Failed', tone: 'danger' },
  // An attempt only: the method was out of reach and the message waits for it.
  UNAVAILABLE: { text: 'Waiting for provider', tone: 'warning' },
};

/** The words a state is shown with ('Delivered'); an unknown state is shown as sent. */
export function stateText(state: string): string {
  return STATE_LOOK[state]?.text ?? state;
}

/**
 * A message or attempt state as a pill with a dot. The state is written out, so colour is
 * never the only sign; the dot pulses while the message is still in flight.
 */
export function MessageStateBadge({ state }: { state: string }) {
  const look = STATE_LOOK[state] ?? { text: state, tone: 'neutral' };
  return (
    <span
      className={cx(
        'state-badge',
        `state-badge-${look.tone}`,
        isInFlight({ state }) && 'is-in-flight',
      )}
    >
      {look.text}
    </span>
  );
}

/** The label beside a delivery method when the built-in simulator handled the message. */
export function SimulatedLabel() {
  return (
    <span
      className="simulated-label"
      title="No provider is configured for this method: the built-in simulator handled it."
    >
      Simulated
    </span>
  );
}
