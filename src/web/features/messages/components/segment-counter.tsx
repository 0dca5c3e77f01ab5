import { MAX_SMS_SEGMENTS } from '../../../../shared/limits';
import { formatMoney, multiplyDecimal } from '../../../../shared/money';
import { countSms } from '../../../../shared/sms';
import { cx } from '../../../lib/cx';
import { formatPrice } from '../../../lib/format';
import './messages.css';

/** Decimal text minus decimal text, exactly, on scaled integers (4 places, as stored). */
function subtract(amount: number, price: string): string {
  const scale = 10_000n;
  const toUnits = (text: string) => {
    const negative = text.startsWith('-');
    const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
    const units =
      BigInt(whole) * scale + BigInt((fraction + '0000').slice(0, 4));
    return negative ? -units : units;
  };
  const units = toUnits(amount.toFixed(4)) - toUnits(price);
  const sign = units < 0n ? '-' : '';
  const abs = units < 0n ? -units : units;
  return `${sign}${abs / scale}.${(abs % scale).toString().padStart(4, '0')}`;
}

function describe(char: string): string {
  if (char === '\u00a0') return 'non-breaking space';
  if (/\s/.test(char))
    return `U+${char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`;
  return char;
}

/**
 * Live facts about the body (beyond the spec): encoding, room left in the segment, segments,
 * the price of a segment to this recipient and of the message, and the balance after sending.
 * Counted by the server's own counter (src/shared/sms).
 */
export function SegmentCounter({
  body,
  pricePerSegment,
  priceSource,
  quoted,
  currency,
  balanceAmount,
}: {
  body: string;
  /** The recipient's price (its quote), or the default price before there is one. */
  pricePerSegment: string;
  /** Where that price comes from ('prefix 44', 'default price'), when a quote has said. */
  priceSource?: string;
  /** What the server's quote charges for so many segments (rounded as the send rounds it). */
  quoted?: { segments: number; amount: string };
  currency: string;
  balanceAmount: number | undefined;
}) {
  const count = countSms(body);
  const price =
    quoted?.segments === count.segments
      ? quoted.amount
      : multiplyDecimal(pricePerSegment, count.segments);
  const after =
    balanceAmount === undefined ? undefined : subtract(balanceAmount, price);
  const tooLong = count.segments > MAX_SMS_SEGMENTS;
  const tooPoor = after !== undefined && after.startsWith('-');

  return (
    <div className="segment-counter">
      <dl className="counter-grid">
        <div>
          <dt>Encoding</dt>
          <dd>{count.encoding}</dd>
        </div>
        <div>
          <dt>Left in segment</dt>
          <dd className="tabular">{count.remainingInSegment}</dd>
        </div>
        <div>
          <dt>Segments</dt>
          <dd className={cx('tabular', tooLong && 'is-danger')}>
            {count.segments}
          </dd>
        </div>
        <div>
          <dt>Price per segment</dt>
          <dd className="tabular">
            {formatPrice(currency, pricePerSegment)}
            {priceSource ? (
              <span className="counter-source">{` (${priceSource})`}</span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>Price</dt>
          <dd className="tabular">{formatMoney(currency, price)}</dd>
        </div>
        <div>
          <dt>Balance after sending</dt>
          <dd className={cx('tabular', tooPoor && 'is-danger')}>
            {after === undefined ? '—' : formatMoney(currency, after)}
          </dd>
        </div>
      </dl>
      <div aria-live="polite">
        {count.nonGsmCharacters.length > 0 ? (
          <p className="counter-note">
            UCS-2 because of: {count.nonGsmCharacters.map(describe).join(' ')}
          </p>
        ) : null}
        {tooLong ? (
          <p className="counter-note is-danger">
            Too long: at most {MAX_SMS_SEGMENTS} segments can be sent.
          </p>
        ) : null}
        {tooPoor && !tooLong ? (
          <p className="counter-note is-danger">
            The balance is too low for this message.
          </p>
        ) : null}
      </div>
    </div>
  );
}
