import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { cleanRecipient } from '../../../../shared/recipient';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Field, TextAreaField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toaster';
import { isApiError } from '../../../lib/api-error';
import { useSendSms, type SmsPayload } from '../api/send-sms';
import { SegmentCounter } from './segment-counter';
import './messages.css';

export const SMS_SENT = 'SMS Sent';
export const NOT_ENOUGH_BALANCE = 'Failed to send. Not enough Balance.';

/** The spec's checks, in its order (§5); the first failing one is shown. */
export function firstProblem(values: SmsPayload): string | null {
  if (!values.sender.trim()) return 'Sender cannot be empty';
  if (!values.recipient.trim()) return 'Recipient cannot be empty';
  if (!values.body) return 'Body cannot be empty';
  return null;
}

function failureText(error: unknown): string {
  if (isApiError(error, 402)) return NOT_ENOUGH_BALANCE;
  if (isApiError(error)) return error.message;
  return 'The server could not be reached. Please try again.';
}

/** What will be sent: the form with the recipient cleaned as it will be (spec §5). */
export function toPayload(values: SmsPayload): SmsPayload {
  return { ...values, recipient: cleanRecipient(values.recipient) };
}

/**
 * /messaging/sms: the SMS form with its live JSON preview beside it (spec §2). The sender is
 * the provider's short name and cannot be edited.
 */
export function SmsForm({
  clientId,
  sender,
  smsPrice,
  currency,
  balanceAmount,
  onSent,
}: {
  clientId: string;
  sender: string;
  smsPrice: string;
  currency: string;
  balanceAmount: number | undefined;
  onSent: () => void;
}) {
  const toast = useToast();
  const send = useSendSms();
  const [problem, setProblem] = useState<string | null>(null);
  const empty: SmsPayload = { sender, recipient: '', body: '', reference: '' };
  const { register, handleSubmit, control, reset } = useForm<SmsPayload>({
    defaultValues: empty,
  });
  const values = useWatch({ control }) as SmsPayload;
  const preview = toPayload({ ...empty, ...values });

  const onSubmit = handleSubmit((form) => {
    const found = firstProblem(form);
    setProblem(found);
    send.reset();
    if (found) return;
    send.mutate(
      { clientId, sms: toPayload(form) },
      {
        onSuccess: () => {
          reset(empty);
          toast.show(SMS_SENT, { tone: 'success' });
          onSent();
        },
      },
    );
  });

  return (
    <div className="sms-layout">
      <form className="card stack" onSubmit={onSubmit} noValidate>
        <Field
          label="Sender"
          hint="Messages are sent under the provider's name."
          inputProps={{ ...register('sender'), readOnly: true }}
        />
        <Field
          label="Recipient"
          hint="A phone number with its country code, e.g. +44 7700 900123"
          inputProps={{
            ...register('recipient'),
            type: 'tel',
            autoComplete: 'off',
            placeholder: '+44 7700 900123',
          }}
        />
        <TextAreaField
          label="Body"
          textareaProps={{ ...register('body'), rows: 6 }}
        />
        <SegmentCounter
          body={values.body ?? ''}
          smsPrice={smsPrice}
          currency={currency}
          balanceAmount={balanceAmount}
        />
        <Field
          label="Reference"
          hint="Optional: your own id for this message."
          inputProps={{ ...register('reference'), autoComplete: 'off' }}
        />
        {/* Beside the Send button, where the eye is after clicking it. */}
        {problem ? (
          <Alert tone="danger" onDismiss={() => setProblem(null)}>
            {problem}
          </Alert>
        ) : null}
        {send.error ? (
          <Alert tone="danger" onDismiss={() => send.reset()}>
            {failureText(send.error)}
          </Alert>
        ) : null}
        <div className="form-actions-inline">
          <Button type="submit" variant="primary" pending={send.isPending}>
            Send SMS
          </Button>
        </div>
      </form>
      <section
        className="card json-preview"
        aria-labelledby="sms-preview-title"
      >
        <h2 id="sms-preview-title" className="section-title">
          JSON preview
        </h2>
        <pre className="mono json-text">{JSON.stringify(preview, null, 2)}</pre>
      </section>
    </div>
  );
}
