import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { MAX_SMS_SEGMENTS } from '../../../../shared/limits';
import type { Message } from '../../../../shared/schemas/messages';
import { countSms } from '../../../../shared/sms';
import { SendFailureAlert } from '../../../components/forms/send-failure-alert';
import { Alert } from '../../../components/ui/alert';
import { TextAreaField } from '../../../components/ui/field';
import { FormActions } from '../../../components/ui/form-actions';
import { SelectBox } from '../../../components/ui/select-box';
import { useToast } from '../../../components/ui/toaster';
import { isApiError } from '../../../lib/api-error';
import { formatPhoneNumber } from '../../../lib/format';
import { useSendSms } from '../api/send-sms';
import './messages.css';
import '../../../components/ui/field.css';

const ReplySchema = z.object({
  body: z
    .string()
    .refine((body) => body.trim() !== '', 'Write a reply first')
    .refine(
      (body) => countSms(body).segments <= MAX_SMS_SEGMENTS,
      `The reply is too long: at most ${MAX_SMS_SEGMENTS} segments`,
    ),
});
type ReplyValues = z.infer<typeof ReplySchema>;

/** What a sender choice shows: a number the client holds, or the provider's name. */
function senderText(sender: string): string {
  return /^\d+$/.test(sender) ? formatPhoneNumber(sender) : sender;
}

/**
 * The reply box under a conversation: a single send (POST …/messages/sms) to the remote number,
 * from one of the client's numbers when it holds any (so the reply comes from the number they
 * wrote to), else under the provider's name. While `refusal` is set (the number opted out) the
 * box is off and says why; a send the server refuses (403: it opted out meanwhile) shows the
 * server's reason and calls `onRefused`, for the screen to ask the thread again.
 */
export function ReplyBox({
  clientId,
  recipient,
  senders,
  refusal,
  onSent,
  onRefused,
}: {
  clientId: string;
  /** The remote number, digits only. */
  recipient: string;
  /** The senders to choose from, the first the default: never empty. */
  senders: string[];
  /** Why replies are refused now, or null. */
  refusal: string | null;
  onSent: (message: Message) => void;
  onRefused: () => void;
}) {
  const toast = useToast();
  const send = useSendSms();
  const refusalId = useId();
  const [sender, setSender] = useState(senders[0] ?? '');
  const chosen = senders.includes(sender) ? sender : (senders[0] ?? '');
  const {
    register,
    handleSubmit,
    control,
    reset,
    formState: { errors },
  } = useForm<ReplyValues>({
    resolver: zodResolver(ReplySchema),
    defaultValues: { body: '' },
    reValidateMode: 'onSubmit',
  });
  const body = useWatch({ control, name: 'body' });
  const count = countSms(body);

  const onSubmit = handleSubmit(({ body: text }) => {
    send.reset();
    send.mutate(
      {
        clientId,
        sms: { sender: chosen, recipient, body: text, reference: '' },
        refusalIsAnswer: true,
      },
      {
        onSuccess: (message) => {
          reset({ body: '' });
          toast.show('SMS Sent', { tone: 'success' });
          onSent(message);
        },
        onError: (error) => {
          if (isApiError(error, 403)) onRefused();
        },
      },
    );
  });

  const off = refusal !== null;
  return (
    <form
      className="card stack-sm reply-box"
      aria-label={`Reply to ${formatPhoneNumber(recipient)}`}
      onSubmit={onSubmit}
      noValidate
    >
      {refusal ? (
        <div id={refusalId}>
          <Alert tone="warning" role="status">
            {refusal}
          </Alert>
        </div>
      ) : null}
      {senders.length > 1 ? (
        <SelectBox
          label="From"
          options={senders.map((key) => ({ key, text: senderText(key) }))}
          value={chosen}
          onChange={setSender}
          disabled={off}
        />
      ) : (
        <p className="muted">
          From <span className="tabular">{senderText(chosen)}</span>
        </p>
      )}
      <TextAreaField
        label="Reply"
        hint={`${count.segments} ${count.segments === 1 ? 'segment' : 'segments'} (${count.encoding}) · Ctrl+Enter sends`}
        error={errors.body?.message}
        textareaProps={{
          ...register('body'),
          rows: 3,
          disabled: off,
          onKeyDown: (event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              void onSubmit();
            }
          },
        }}
      />
      <SendFailureAlert send={send} />
      <FormActions
        submit="Send Reply"
        pending={send.isPending}
        disabled={off}
        describedBy={off ? refusalId : undefined}
      />
    </form>
  );
}
