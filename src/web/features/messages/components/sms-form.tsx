import { zodResolver } from '@hookform/resolvers/zod';
import {
  keepPreviousData,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { cleanRecipient } from '../../../../shared/recipient';
import {
  SendSmsSchema,
  type SendSmsInput,
} from '../../../../shared/schemas/messages';
import { SendLaterFields } from '../../../components/forms/send-later-fields';
import { SendFailureAlert } from '../../../components/forms/send-failure-alert';
import { Alert } from '../../../components/ui/alert';
import { FormActions } from '../../../components/ui/form-actions';
import { Field, TextAreaField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toaster';
import type { Message } from '../../../../shared/schemas/messages';
import { paths } from '../../../config/paths';
import type { Quote } from '../../../../shared/schemas/prices';
import { priceSourceText } from '../../../lib/format';
import {
  refineSendLater,
  SEND_LATER_DEFAULTS,
  sendAtOf,
  sendLaterShape,
  type SendLaterValues,
} from '../../../lib/send-at';
import { useDebounced } from '../../../lib/use-debounced';
import { canQuote, quoteQueryOptions, type QuoteQuery } from '../api/get-quote';
import { useSendSms, type SmsPayload, type SmsRequest } from '../api/send-sms';
import { SegmentCounter } from './segment-counter';
import './messages.css';
import '../../../components/ui/field.css';

/** The fields in the order spec §5 checks them: the first one refused is the one shown. */
const CHECK_ORDER = [
  'sender',
  'recipient',
  'body',
  'reference',
  'sendAt',
] as const;

/** The SMS and, optionally, when to send it (checked with the server's rule). */
const SmsFormSchema = SendSmsSchema.extend(sendLaterShape).superRefine(
  (values, ctx) => refineSendLater(values, ctx),
);
type SmsFormInput = SendSmsInput & SendLaterValues;
type SmsFormOutput = SmsPayload & SendLaterValues;

/** How long typing pauses before the recipient's price is asked again. */
export const QUOTE_DEBOUNCE_MS = 300;

/** Said before Send is pressed, and instead of sending, when the client may not send there. */
export function notAllowedText(quote: Quote): string {
  return quote.reason ?? `Sending to +${quote.recipient} is not allowed`;
}

/**
 * The quote of what is typed, asked once the typing pauses: the recipient's price and whether
 * this client may send there. The last answer stays while the next is asked, and counts only
 * for the recipient it was asked for.
 */
function useLiveQuote(clientId: string, typed: QuoteQuery): Quote | undefined {
  const recipient = useDebounced(typed.recipient, QUOTE_DEBOUNCE_MS);
  const body = useDebounced(typed.body, QUOTE_DEBOUNCE_MS);
  const query = { recipient, body };
  const quote = useQuery({
    ...quoteQueryOptions(clientId, query),
    enabled: canQuote(query),
    placeholderData: keepPreviousData,
  });
  return quote.data && cleanRecipient(quote.data.recipient) === typed.recipient
    ? quote.data
    : undefined;
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
  /** Called with the accepted message. */
  onSent: (message: Message) => void;
}) {
  const toast = useToast();
  const send = useSendSms();
  const queryClient = useQueryClient();
  const refusalId = useId();
  // The refusal of the last press of Send, from the quote asked just before sending.
  const [refused, setRefused] = useState<{
    recipient: string;
    text: string;
  } | null>(null);
  // The last message sent from this form, linked to its detail in the Message Log.
  const [lastSent, setLastSent] = useState<string | null>(null);
  const sentNote = useRef<HTMLParagraphElement>(null);
  // The reset form is shorter than the one sent: the note is scrolled into view if it left it.
  useEffect(() => {
    const note = sentNote.current;
    if (note && 'scrollIntoView' in note)
      note.scrollIntoView({ block: 'nearest' });
  }, [lastSent]);
  const empty: SmsFormOutput = {
    sender,
    recipient: '',
    body: '',
    reference: '',
    ...SEND_LATER_DEFAULTS,
  };
  const {
    register,
    handleSubmit,
    control,
    reset,
    clearErrors,
    formState: { errors },
  } = useForm<SmsFormInput, unknown, SmsFormOutput>({
    resolver: zodResolver(SmsFormSchema),
    defaultValues: empty,
    // The alert answers a press of Send SMS; typing does not change it (spec §5).
    reValidateMode: 'onSubmit',
  });
  const values = useWatch({ control });
  // What will be sent: the recipient cleaned as the schema will clean it (spec §5).
  const preview: SmsRequest = {
    sender: values.sender ?? sender,
    recipient: cleanRecipient(values.recipient ?? ''),
    body: values.body ?? '',
    reference: values.reference ?? '',
    ...sendAtOf({
      sendLater: values.sendLater ?? false,
      sendAt: values.sendAt ?? '',
    }),
  };
  const problem = CHECK_ORDER.map((name) => errors[name]?.message).find(
    Boolean,
  );
  const quote = useLiveQuote(clientId, {
    recipient: preview.recipient,
    body: preview.body,
  });
  const notAllowed = quote && !quote.allowed ? notAllowedText(quote) : null;
  const refusal =
    notAllowed ??
    (refused?.recipient === preview.recipient ? refused.text : null);

  /**
   * The quote of exactly what is sent, asked (or taken from the cache) before sending: a send
   * the server would refuse with 403 is refused here with its reason instead, since any 403
   * signs the user out (spec §8). Without an answer the server decides.
   */
  const refusalOf = async (sms: SmsPayload): Promise<string | null> => {
    try {
      const answer = await queryClient.fetchQuery(
        quoteQueryOptions(clientId, {
          recipient: sms.recipient,
          body: sms.body,
        }),
      );
      return answer.allowed ? null : notAllowedText(answer);
    } catch {
      return null;
    }
  };

  const onSubmit = handleSubmit(
    async ({ sendLater, sendAt, ...payload }) => {
      const sms: SmsRequest = {
        ...payload,
        ...sendAtOf({ sendLater, sendAt }),
      };
      send.reset();
      const why = await refusalOf(sms);
      setRefused(why ? { recipient: sms.recipient, text: why } : null);
      if (why) return;
      // A refusal the quote could not foresee (the recipient opted out meanwhile) is shown
      // as the server says it, not a sign-out.
      send.mutate(
        { clientId, sms, refusalIsAnswer: true },
        {
          onSuccess: (message) => {
            reset(empty);
            toast.show(sms.sendAt ? 'SMS Scheduled' : 'SMS Sent', {
              tone: 'success',
            });
            setLastSent(message.id);
            onSent(message);
          },
        },
      );
    },
    () => {
      send.reset();
      setRefused(null);
    },
  );

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
          pricePerSegment={quote ? String(quote.pricePerSegment) : smsPrice}
          priceSource={quote ? priceSourceText(quote.pricePrefix) : undefined}
          quoted={
            quote
              ? { segments: quote.segments, amount: String(quote.amount) }
              : undefined
          }
          currency={currency}
          balanceAmount={balanceAmount}
        />
        <Field
          label="Reference"
          hint="Optional: your own id for this message."
          inputProps={{ ...register('reference'), autoComplete: 'off' }}
        />
        <SendLaterFields
          toggle={register('sendLater')}
          picker={register('sendAt')}
          sendLater={values.sendLater ?? false}
          sendAt={values.sendAt ?? ''}
        />
        {/* Beside the Send button, where the eye is after clicking it. */}
        {problem ? (
          <Alert tone="danger" onDismiss={() => clearErrors()}>
            {problem}
          </Alert>
        ) : null}
        {refusal && !problem ? (
          <div id={refusalId}>
            <Alert tone="danger">{refusal}</Alert>
          </div>
        ) : null}
        <SendFailureAlert send={send} />
        {/* Where the eye is after sending (the toast says it was sent, this where it went). */}
        {lastSent && !problem && !send.error ? (
          <p className="sent-note" ref={sentNote}>
            Your last message is in the{' '}
            <Link to={paths.message(lastSent)}>Message Log</Link>, where you can
            follow its delivery.
          </p>
        ) : null}
        <FormActions
          submit="Send SMS"
          pending={send.isPending}
          disabled={notAllowed !== null}
          describedBy={notAllowed ? refusalId : undefined}
        />
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
