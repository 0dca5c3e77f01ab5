import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import {
  cleanRecipient,
  isNationalNumber,
  isValidRecipient,
} from '../../../../shared/recipient';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { DataTable } from '../../../components/ui/data-table';
import { Field } from '../../../components/ui/field';
import { SectionCard } from '../../../components/ui/section-card';
import { useToast } from '../../../components/ui/toaster';
import { paths } from '../../../config/paths';
import { errorText } from '../../../lib/api-error';
import { formatDateTime, formatPhoneNumber } from '../../../lib/format';
import { useServerError } from '../../../lib/server-errors';
import { useOptouts } from '../api/get-optouts';
import { useOptoutMutations } from '../api/save-optout';
import type { OptOut } from '../../../../shared/schemas/optouts';
import './optouts.css';
import '../../../components/ui/field.css';

export const OPTOUT_ADDED = 'The number has been opted out';
export const OPTOUT_REMOVED = 'The opt-out has been removed';

export const removeQuestion = (optout: OptOut) =>
  `Are you sure you want to remove the opt-out of ${formatPhoneNumber(optout.number)}? Your messages to it will be sent again.`;

/** Cleaned as a send cleans a recipient, so the opt-out matches the sends it must refuse. */
const AddOptoutSchema = z.object({
  number: z
    .string()
    .transform(cleanRecipient)
    .refine((number) => number !== '', 'Number cannot be empty')
    .refine((number) => isValidRecipient(number), {
      error: (issue) =>
        isNationalNumber(String(issue.input))
          ? 'Number is a national number (it begins with 0): give it with its country code'
          : 'Number must be a phone number of 6 to 15 digits',
    }),
});
type AddOptoutInput = z.input<typeof AddOptoutSchema>;
type AddOptoutOutput = z.output<typeof AddOptoutSchema>;

const SOURCE_TEXT = {
  keyword: 'Replied STOP',
  api: 'Added by you',
} as const;

/** `/messaging/optouts?offset=n`, or the first page. */
const optoutsHref = (offset: number) =>
  offset > 0 ? `${paths.optouts}?offset=${offset}` : paths.optouts;

/**
 * The client's opt-outs: the numbers its messages are refused to. A number that replied STOP
 * stays until it sends START (no Remove for it); one added here can be removed after a
 * confirmation. Add a number, or download the whole list as CSV.
 */
export function Optouts({
  clientId,
  offset,
}: {
  clientId: string;
  offset: number;
}) {
  const toast = useToast();
  const optouts = useOptouts(clientId, offset);
  const { remove } = useOptoutMutations();
  const [removing, setRemoving] = useState<OptOut | null>(null);

  const onRemove = () => {
    if (!removing) return;
    remove.mutate(
      { clientId, number: removing.number },
      {
        onSuccess: () => {
          setRemoving(null);
          toast.show(OPTOUT_REMOVED, { tone: 'success' });
        },
        onError: () => setRemoving(null),
      },
    );
  };

  return (
    <div className="stack">
      <AddOptoutForm clientId={clientId} />
      {remove.error ? (
        <Alert tone="danger" onDismiss={() => remove.reset()}>
          {`The opt-out could not be removed: ${errorText(remove.error)}`}
        </Alert>
      ) : null}
      <SectionCard title="Opted-out numbers" className="stack-sm">
        <DataTable
          card={false}
          query={optouts}
          rows={(data) => data.optouts}
          rowKey={(optout) => optout.number}
          columns={[
            {
              header: 'Number',
              label: null,
              className: 'tabular optout-number',
              cell: (optout) => formatPhoneNumber(optout.number),
            },
            {
              header: 'Source',
              cell: (optout) => SOURCE_TEXT[optout.source],
            },
            {
              header: 'Since',
              className: 'nowrap',
              cell: (optout) => formatDateTime(optout.dateCreated),
            },
            {
              header: 'Actions',
              label: null,
              cell: (optout) =>
                optout.source === 'api' ? (
                  <Button
                    size="sm"
                    variant="danger"
                    aria-label={`Remove the opt-out of ${formatPhoneNumber(optout.number)}`}
                    onClick={() => setRemoving(optout)}
                  >
                    Remove
                  </Button>
                ) : (
                  <span className="muted">Ends when they send START</span>
                ),
            },
          ]}
          caption={(rows, data) =>
            `Opt-outs ${offset + 1} to ${offset + rows.length} of ${data.total}`
          }
          loadingLabel="Loading opt-outs"
          skeletonRows={3}
          errorPrefix="The opt-outs could not be loaded. "
          empty={
            offset > 0
              ? 'No opt-outs on this page.'
              : 'No opt-outs. Numbers that reply STOP, and numbers you add, are listed here; messages to them are refused.'
          }
          emptyAction={
            offset > 0 ? (
              <ButtonLink to={optoutsHref(0)}>First page</ButtonLink>
            ) : null
          }
          pager={{
            label: 'Opt-out pages',
            offset,
            pageSize: DEFAULT_PAGE_SIZE,
            total: (data) => data.total,
            hrefFor: optoutsHref,
          }}
        />
      </SectionCard>
      <ConfirmDialog
        open={removing !== null}
        text={removing ? removeQuestion(removing) : ''}
        destructive
        pending={remove.isPending}
        onConfirm={onRemove}
        onCancel={() => setRemoving(null)}
      />
    </div>
  );
}

/** A number to opt out by hand (a request by phone, a complaint): its sends are refused at once. */
function AddOptoutForm({ clientId }: { clientId: string }) {
  const toast = useToast();
  const { add } = useOptoutMutations();
  const form = useForm<AddOptoutInput, unknown, AddOptoutOutput>({
    resolver: zodResolver(AddOptoutSchema),
    defaultValues: { number: '' },
  });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = form;
  const serverError = useServerError(form, add.error, { number: 'Number' });

  const onSubmit = handleSubmit(({ number }) =>
    add.mutate(
      { clientId, number },
      {
        onSuccess: () => {
          reset({ number: '' });
          toast.show(OPTOUT_ADDED, { tone: 'success' });
        },
      },
    ),
  );

  return (
    <SectionCard title="Add an opt-out" className="stack-sm">
      {serverError ? <Alert tone="danger">{serverError}</Alert> : null}
      <form className="optout-form" onSubmit={onSubmit} noValidate>
        <Field
          label="Number"
          hint="A phone number with its country code, e.g. +44 7700 900123"
          error={errors.number?.message}
          inputProps={{
            ...register('number'),
            type: 'tel',
            autoComplete: 'off',
            placeholder: '+44 7700 900123',
          }}
        />
        <div className="optout-form-actions">
          <Button type="submit" variant="primary" pending={add.isPending}>
            Add Opt-out
          </Button>
        </div>
      </form>
    </SectionCard>
  );
}
