import './conversations.css';

/** Said beside a number that opted out of the client's messages: a pill, in words. */
export function OptedOutBadge() {
  return <span className="opted-out-badge">Opted out</span>;
}
