import type { UseFormRegisterReturn } from 'react-hook-form';
import { MAX_SCHEDULE_DAYS } from '../../../shared/schemas/campaigns';
import { localToIso, timeZoneName, utcOffsetText } from '../../lib/send-at';
import { Field } from '../ui/field';
import '../ui/field.css';
import './send-later-fields.css';

/**
 * "Send later" and, once ticked, the date-time picker in the user's time zone, named with
 * its UTC offset on the picked day (daylight saving moves it).
 */
export function SendLaterFields({
  toggle,
  picker,
  sendLater,
  sendAt,
  error,
}: {
  /** register('sendLater') and register('sendAt') of the form (lib/send-at.ts). */
  toggle: UseFormRegisterReturn;
  picker: UseFormRegisterReturn;
  sendLater: boolean;
  sendAt: string;
  error?: string;
}) {
  const iso = localToIso(sendAt);
  const offset = utcOffsetText(iso ? new Date(iso) : new Date());
  return (
    <div className="send-later stack-sm">
      <label className="send-later-toggle">
        <input type="checkbox" {...toggle} />
        Send later
      </label>
      {sendLater ? (
        <Field
          label={`Send at (${offset})`}
          hint={
            iso
              ? `${timeZoneName()}, ${offset}: sent at ${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC. Charged now; you can cancel it until then.`
              : `In your time zone, ${timeZoneName()} (${offset}), up to ${MAX_SCHEDULE_DAYS} days ahead.`
          }
          error={error}
          inputProps={{ ...picker, type: 'datetime-local' }}
        />
      ) : null}
    </div>
  );
}
