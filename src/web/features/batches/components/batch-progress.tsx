import type { Batch } from '../../../../shared/schemas/campaigns';
import { stateLook, stateText } from '../../../lib/message-states';
import { finalCount, progressParts } from '../batch-progress-model';
import './batches.css';

/**
 * A batch's messages by state: a bar of coloured parts, and each state written out with its
 * count (colour is never the only sign). `compact` leaves out the counts (a list's row).
 */
export function BatchProgress({
  batch,
  compact = false,
}: {
  batch: Pick<Batch, 'states' | 'total'>;
  compact?: boolean;
}) {
  const parts = progressParts(batch);
  const done = finalCount(batch);
  const percent = batch.total ? Math.floor((done / batch.total) * 100) : 100;
  const label = `${done} of ${batch.total} final (${percent} %)`;
  return (
    <div className="stack-sm">
      <div
        className="batch-progress-bar"
        role="progressbar"
        aria-label="Messages in a final state"
        aria-valuemin={0}
        aria-valuemax={batch.total}
        aria-valuenow={done}
        aria-valuetext={label}
      >
        {parts.map((part) => (
          <span
            key={part.state}
            className={`batch-progress-part tone-${stateLook(part.state).tone}`}
            style={{ width: `${part.percent}%` }}
            title={`${stateText(part.state)}: ${part.count}`}
          />
        ))}
      </div>
      <span className="tabular">{label}</span>
      {compact ? null : (
        <ul
          className="plain-list batch-progress-legend"
          aria-label="Messages by state"
        >
          {parts.map((part) => (
            <li key={part.state}>
              <span
                className={`batch-progress-key tone-${stateLook(part.state).tone}`}
                aria-hidden="true"
              />
              {stateText(part.state)}{' '}
              <span className="tabular">{part.count}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
