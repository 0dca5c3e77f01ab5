import { zodResolver } from '@hookform/resolvers/zod';
import { useQueries } from '@tanstack/react-query';
import { useId, useMemo, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { formatMoney, multiplyDecimal } from '../../../../shared/money';
import type { CreatedBatch } from '../../../../shared/schemas/campaigns';
import { SendSmsSchema } from '../../../../shared/schemas/messages';
import type { PriceList, Quote } from '../../../../shared/schemas/prices';
import { countSms } from '../../../../shared/sms';
import { SendLaterFields } from '../../../components/forms/send-later-fields';
import { SendFailureAlert } from '../../../components/forms/send-failure-alert';
import { Alert } from '../../../components/ui/alert';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Table, type Column } from '../../../components/ui/data-table';
import { TextAreaField } from '../../../components/ui/field';
import { FormActions } from '../../../components/ui/form-actions';
import { SectionCard } from '../../../components/ui/section-card';
import { useToast } from '../../../components/ui/toaster';
import { errorText } from '../../../lib/api-error';
import { formatDateTime, formatPrice } from '../../../lib/format';
import {
  refineSendLater,
  SEND_LATER_DEFAULTS,
  sendAtOf,
  sendLaterShape,
} from '../../../lib/send-at';
import { useDebounced } from '../../../lib/use-debounced';
import { newIdempotencyKey, useCreateBatch } from '../api/create-batch';
import {
  groupByDestination,
  subtractAmount,
  sumAmounts,
  type DestinationGroup,
} from '../destination-groups';
import { listProblem, parseRecipients } from '../recipient-list';
import '../../../components/ui/field.css';
import './batches.css';

/** Bad lines listed under the recipients; the count says how many there are. */
const LISTED_BAD_LINES = 20;

const BulkSendSchema = z
  .object({
    recipients: z.string(),
    body: SendSmsSchema.shape.body,
    ...sendLaterShape,
  })
  .superRefine((values, ctx) => {
    const problem = listProblem(parseRecipients(values.recipients));
    if (problem) {
      ctx.addIssue({ code: 'custom', path: ['recipients'], message: problem });
    }
    refineSendLater(values, ctx);
  });
type BulkSendValues = z.input<typeof BulkSendSchema>;

/** A quote call as the route composes it (features/messages/api/get-quote.ts). */
export type QuoteOptions = (query: { recipient: string; body: string }) => {
  queryKey: readonly unknown[];
  queryFn: () => Promise<Quote>;
};

interface PricedGroup extends DestinationGroup {
  quote: Quote | undefined;
  /** Why these recipients cannot be sent to, or null. */
  refusal: string | null;
  /** The group's amount, once quoted. */
  amount: string | null;
}

function usePricedGroups(
  groups: DestinationGroup[],
  body: string,
  quoteOptions: QuoteOptions,
): PricedGroup[] {
  // One quote per destination group: its first recipient stands for the others.
  const quotes = useQueries({
    queries: groups.map((group) => ({
      ...quoteOptions({ recipient: group.recipients[0] ?? '', body }),
      enabled: body !== '',
      staleTime: 60_000,
    })),
  });
  return groups.map((group, index) => {
    const quote = quotes[index]?.data;
    const refusal = group.blocked
      ? `Sending to ${group.name} is blocked`
      : quote && !quote.allowed
        ? (quote.reason ?? `Sending to ${group.name} is not allowed`)
        : null;
    return {
      ...group,
      quote,
      refusal,
      amount: quote
        ? multiplyDecimal(String(quote.amount), group.recipients.length)
        : null,
    };
  });
}

/**
 * The Bulk send tab: numbers pasted or read from a CSV or text file (first column; a header
 * line is skipped), checked as they are typed (valid, bad lines with their numbers, duplicates
 * removed), priced per destination group with the total and the balance after, then sent
 * (now or later) after a confirmation naming the count and the total.
 */
export function BulkSendForm({
  clientId,
  currency,
  balanceAmount,
  prices,
  quoteOptions,
  onSent,
}: {
  clientId: string;
  currency: string;
  balanceAmount: number | undefined;
  /** The whole price list, to group recipients by destination; undefined while it loads. */
  prices: PriceList | undefined;
  quoteOptions: QuoteOptions;
  onSent: (batch: CreatedBatch) => void;
}) {
  const toast = useToast();
  const send = useCreateBatch();
  /** The request last confirmed and its Idempotency-Key, until it succeeds. */
  const attempt = useRef<{ request: string; key: string } | null>(null);
  const fileId = useId();
  const [readError, setReadError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{
    recipients: string[];
    body: string;
    sendAt?: string;
  } | null>(null);
  const {
    register,
    handleSubmit,
    control,
    setValue,
    formState: { errors },
  } = useForm<BulkSendValues>({
    resolver: zodResolver(BulkSendSchema),
    defaultValues: { recipients: '', body: '', ...SEND_LATER_DEFAULTS },
  });
  const values = useWatch({ control });
  const recipientsText = useDebounced(values.recipients ?? '', 150);
  const list = useMemo(() => parseRecipients(recipientsText), [recipientsText]);
  const groups = useMemo(
    () => groupByDestination(list.recipients, prices?.prices ?? []),
    [list.recipients, prices],
  );
  const body = useDebounced(values.body ?? '', 300);
  const priced = usePricedGroups(groups, body, quoteOptions);
  const segments = countSms(values.body ?? '').segments;
  const allQuoted =
    priced.length > 0 && priced.every((group) => group.amount !== null);
  const total = allQuoted
    ? sumAmounts(priced.map((group) => group.amount ?? '0'))
    : null;
  const after =
    total !== null && balanceAmount !== undefined
      ? subtractAmount(balanceAmount, total)
      : null;
  const refused = priced.filter((group) => group.refusal !== null);
  const short = after !== null && after.startsWith('-');

  const onFile = async (file: File | undefined) => {
    setReadError(null);
    if (!file) return;
    try {
      setValue('recipients', await file.text(), { shouldDirty: true });
    } catch (error) {
      setReadError(`The file could not be read: ${errorText(error)}`);
    }
  };

  const onSubmit = handleSubmit((form) => {
    send.reset();
    if (refused.length > 0 || short) return;
    setConfirming({
      recipients: parseRecipients(form.recipients).recipients,
      body: form.body,
      ...sendAtOf({ sendLater: form.sendLater, sendAt: form.sendAt }),
    });
  });

  const count = confirming?.recipients.length ?? 0;
  const confirmText = confirming
    ? `${confirming.sendAt ? `Schedule for ${formatDateTime(confirming.sendAt)}` : 'Send'} this message to ${count} ${count === 1 ? 'recipient' : 'recipients'}${total !== null ? ` for ${formatMoney(currency, total)}` : ''}?`
    : '';

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <SectionCard title="Recipients" className="stack">
        <TextAreaField
          label="Phone numbers"
          hint="One phone number a line, with its country code. From a CSV, the first column counts and a header line is skipped."
          error={errors.recipients?.message}
          textareaProps={{
            ...register('recipients'),
            rows: 8,
            spellCheck: false,
            placeholder: '+44 7700 900123\n+33 6 12 34 56 78',
          }}
        />
        <div className="field">
          <label className="field-label" htmlFor={fileId}>
            Upload a CSV or text file
          </label>
          <input
            id={fileId}
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            onChange={(event) => void onFile(event.target.files?.[0])}
          />
        </div>
        {readError ? <Alert tone="danger">{readError}</Alert> : null}
        <RecipientSummary list={list} />
      </SectionCard>
      <SectionCard title="Message" className="stack">
        <TextAreaField
          label="Body"
          hint={`${segments} ${segments === 1 ? 'segment' : 'segments'} for each recipient`}
          error={errors.body?.message}
          textareaProps={{ ...register('body'), rows: 5 }}
        />
        <SendLaterFields
          toggle={register('sendLater')}
          picker={register('sendAt')}
          sendLater={values.sendLater ?? false}
          sendAt={values.sendAt ?? ''}
          error={errors.sendAt?.message}
        />
      </SectionCard>
      <PriceSummary
        groups={priced}
        currency={currency}
        quoting={body !== '' && !allQuoted}
        needsBody={body === ''}
        total={total}
        after={after}
      />
      {refused.length > 0 ? (
        <Alert tone="danger">
          {`Remove the recipients of refused destinations before sending: ${refused
            .map((group) => group.refusal)
            .join('; ')}.`}
        </Alert>
      ) : null}
      {short ? (
        <Alert tone="danger">
          The balance does not cover this batch: top it up or send to fewer
          recipients.
        </Alert>
      ) : null}
      <SendFailureAlert send={send} />
      <FormActions
        submit={
          list.recipients.length > 0
            ? `Send to ${list.recipients.length} ${list.recipients.length === 1 ? 'recipient' : 'recipients'}`
            : 'Send'
        }
        pending={send.isPending}
      />
      <ConfirmDialog
        open={confirming !== null}
        text={confirmText}
        pending={send.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (!confirming) return;
          // A new key for a new request; the same one when this request is tried again
          // (its answer lost or refused), so the server never creates it twice.
          const request = JSON.stringify(confirming);
          if (attempt.current?.request !== request) {
            attempt.current = { request, key: newIdempotencyKey() };
          }
          send.mutate(
            {
              clientId,
              batch: confirming,
              idempotencyKey: attempt.current.key,
            },
            {
              onSuccess: (batch) => {
                attempt.current = null;
                toast.show(
                  batch.sendAt ? 'Batch scheduled' : 'Batch accepted',
                  { tone: 'success' },
                );
                onSent(batch);
              },
              onSettled: () => setConfirming(null),
            },
          );
        }}
      />
    </form>
  );
}

function RecipientSummary({
  list,
}: {
  list: ReturnType<typeof parseRecipients>;
}) {
  const valid = list.recipients.length;
  return (
    <div className="stack-sm">
      <p role="status" className="recipient-counts">
        <span>
          <strong className="tabular">{valid}</strong>{' '}
          {valid === 1 ? 'valid recipient' : 'valid recipients'}
        </span>
        <span>
          <strong className="tabular">{list.duplicates}</strong>{' '}
          {list.duplicates === 1 ? 'duplicate removed' : 'duplicates removed'}
        </span>
        <span className={list.bad.length ? 'is-danger' : undefined}>
          <strong className="tabular">{list.bad.length}</strong>{' '}
          {list.bad.length === 1 ? 'bad line' : 'bad lines'}
        </span>
        {list.header ? (
          <span className="muted">Header line skipped</span>
        ) : null}
      </p>
      {list.bad.length > 0 ? (
        <ul className="plain-list bad-recipients" aria-label="Bad lines">
          {list.bad.slice(0, LISTED_BAD_LINES).map((bad) => (
            <li key={bad.line}>
              <span className="tabular">Line {bad.line}</span>:{' '}
              <span className="mono">{bad.text}</span> — {bad.reason}
            </li>
          ))}
          {list.bad.length > LISTED_BAD_LINES ? (
            <li className="muted">
              {`and ${list.bad.length - LISTED_BAD_LINES} more`}
            </li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}

function PriceSummary({
  groups,
  currency,
  quoting,
  needsBody,
  total,
  after,
}: {
  groups: PricedGroup[];
  currency: string;
  quoting: boolean;
  needsBody: boolean;
  total: string | null;
  after: string | null;
}) {
  const columns: Column<PricedGroup>[] = [
    {
      header: 'Destination',
      cell: (group) =>
        group.prefix === null ? group.name : `${group.name} (+${group.prefix})`,
      label: null,
    },
    {
      header: 'Recipients',
      cell: (group) => group.recipients.length,
      numeric: true,
    },
    {
      header: 'Price per message',
      cell: (group) =>
        group.refusal ??
        (group.quote ? formatPrice(currency, group.quote.amount) : '…'),
      numeric: true,
    },
    {
      header: 'Amount',
      cell: (group) =>
        group.amount !== null ? formatMoney(currency, group.amount) : '…',
      numeric: true,
    },
  ];
  return (
    <SectionCard title="Price" className="stack-sm">
      {groups.length === 0 ? (
        <p className="muted">
          The price per destination shows once recipients are listed.
        </p>
      ) : (
        <>
          <Table
            rows={groups}
            rowKey={(group) => group.prefix ?? 'default'}
            columns={columns}
            caption="Price per destination group"
            busy={quoting}
            card={false}
            rowClassName={(group) => (group.refusal ? 'is-refused' : undefined)}
          />
          {needsBody ? (
            <p className="muted">Write the message to see its price.</p>
          ) : null}
          <dl className="details price-totals">
            <div className="details-pair">
              <dt>Total</dt>
              <dd className="tabular">
                {total !== null ? formatMoney(currency, total) : '—'}
              </dd>
            </div>
            <div className="details-pair">
              <dt>Balance after</dt>
              <dd
                className={
                  after?.startsWith('-') ? 'tabular is-danger' : 'tabular'
                }
              >
                {after !== null ? formatMoney(currency, after) : '—'}
              </dd>
            </div>
          </dl>
        </>
      )}
    </SectionCard>
  );
}
