import { z } from 'zod';
import { idOf } from '../../../../shared/schemas/common';
import { Alert } from '../../../components/ui/alert';
import { Field, TextAreaField } from '../../../components/ui/field';
import { FormActions } from '../../../components/ui/form-actions';
import { SectionCard } from '../../../components/ui/section-card';
import { useToast } from '../../../components/ui/toaster';
import { formatPhoneNumber } from '../../../lib/format';
import { useEditForm } from '../../../lib/use-edit-form';
import { useNumberMutations } from '../api/save-number';
import {
  HelpTextSchema,
  NumberValueSchema,
  type PhoneNumber,
} from '../../../../shared/schemas/numbers';

/**
 * The server's own rules (src/shared/schemas/numbers.ts), checked here first; the spaces, '+'
 * and '-' of a pasted number are dropped before.
 */
const AssignNumberSchema = z.object({
  number: z
    .string()
    .transform((number) => number.replace(/[\s+\-().]/g, ''))
    .pipe(NumberValueSchema),
  clientId: idOf('Client ID'),
  helpText: HelpTextSchema,
});

export const NUMBER_ASSIGNED = 'The number has been assigned';
export const NUMBER_SAVED = 'The number has been saved';

/**
 * Assigns a number to a client or, given one, changes its client (the number moves: its old
 * client no longer receives on it) or its help text. The number itself is what it is.
 */
export function AssignNumberForm({
  number,
  clientId = '',
  onDone,
}: {
  number?: PhoneNumber;
  /** The client to assign to, when the screen is filtered by one. */
  clientId?: string;
  onDone: () => void;
}) {
  const toast = useToast();
  const { assign } = useNumberMutations();
  const { form, serverError } = useEditForm({
    schema: AssignNumberSchema,
    defaultValues: {
      number: number?.number ?? '',
      clientId: number?.clientId ?? clientId,
      helpText: number?.helpText ?? '',
    },
    focus: number ? 'clientId' : 'number',
    error: assign.error,
    labels: { number: 'Number', clientId: 'Client ID', helpText: 'Help text' },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;

  const onSubmit = handleSubmit(({ helpText, ...values }) =>
    assign.mutate(
      { ...values, ...(helpText ? { helpText } : {}) },
      {
        onSuccess: () => {
          toast.show(number ? NUMBER_SAVED : NUMBER_ASSIGNED, {
            tone: 'success',
          });
          onDone();
        },
      },
    ),
  );

  return (
    <SectionCard
      title={
        number ? `Edit ${formatPhoneNumber(number.number)}` : 'Assign a number'
      }
      className="stack-sm"
    >
      {serverError ? <Alert tone="danger">{serverError}</Alert> : null}
      <form className="stack-sm" onSubmit={onSubmit} noValidate>
        <div className="number-form-grid">
          <Field
            label="Number"
            hint={
              number
                ? 'Another number is another entry.'
                : 'Digits with the country code, such as 447700900123, or a short code'
            }
            error={errors.number?.message}
            inputProps={{
              ...register('number'),
              readOnly: Boolean(number),
              inputMode: 'tel',
              autoComplete: 'off',
            }}
          />
          <Field
            label="Client ID"
            hint={
              number
                ? 'Another client here moves the number to it.'
                : 'The client that receives the messages, such as on its page'
            }
            error={errors.clientId?.message}
            inputProps={{
              ...register('clientId'),
              autoComplete: 'off',
              spellCheck: false,
              className: 'mono',
            }}
          />
        </div>
        <TextAreaField
          label="Help text"
          hint="Optional: the answer to HELP or INFO sent to this number. Empty: the provider's default."
          error={errors.helpText?.message}
          textareaProps={{ ...register('helpText'), rows: 2 }}
        />
        <FormActions
          submit={number ? 'Save Number' : 'Assign Number'}
          pending={assign.isPending}
          onCancel={onDone}
        />
      </form>
    </SectionCard>
  );
}
