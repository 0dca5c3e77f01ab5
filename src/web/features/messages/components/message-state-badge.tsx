import { cx } from '../../../lib/cx';
import { stateLook } from '../../../lib/message-states';
import { isInFlight } from '../message-log-model';
import './message-log.css';

/**
 * A message or attempt state as a pill with a dot. The state is written out, so colour is
 * never the only sign; the dot pulses while the message is still in flight.
 */
export function MessageStateBadge({ state }: { state: string }) {
  const look = stateLook(state);
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
