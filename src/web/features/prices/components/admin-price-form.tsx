import { z } from 'zod';
import {
  PrefixSchema,
  PutPriceSchema,
  type Price,
} from '../../../../shared/schemas/prices';
import { Alert } from '../../../components/ui/alert';
import { Field } from '../../../components/ui/field';
import { FormActions } from '../../../components/ui/form-actions';
import { SectionCard } from '../../../components/ui/section-card';
import { useToast } from '../../../components/ui/toaster';
import { useEditForm } from '../../../lib/use-edit-form';
import { usePriceMutations } from '../api/save-price';
import '../../../components/ui/field.css';

const PriceFormSchema = PutPriceSchema.extend({
  prefix: PrefixSchema,
  blocked: z.boolean(),
});

export const PRICE_SAVED = 'The price has been saved';

/**
 * Adds an entry or, given one, edits its name, price and blocked flag (its prefix is what it
 * is: another prefix is another entry). The shared schema checks it here as on the server.
 */
export function AdminPriceForm({
  price,
  onDone,
}: {
  price?: Price;
  onDone: () => void;
}) {
  const toast = useToast();
  const { save } = usePriceMutations();
  // Opened from a button elsewhere on the page: the keyboard starts in the form.
  const { form, serverError } = useEditForm({
    schema: PriceFormSchema,
    defaultValues: {
      prefix: price?.prefix ?? '',
      name: price?.name ?? '',
      pricePerSegment: price ? String(price.pricePerSegment) : '',
      blocked: price?.blocked ?? false,
    },
    focus: price ? 'name' : 'prefix',
    error: save.error,
    labels: {
      prefix: 'Prefix',
      name: 'Name',
      pricePerSegment: 'Price per segment',
    },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const title = price ? `Edit the price of ${price.prefix}` : 'Add a price';

  const onSubmit = handleSubmit(({ prefix, ...entry }) =>
    save.mutate(
      { prefix, price: entry },
      {
        onSuccess: () => {
          toast.show(PRICE_SAVED, { tone: 'success' });
          onDone();
        },
      },
    ),
  );

  return (
    <SectionCard title={title} className="stack-sm">
      {serverError ? <Alert tone="danger">{serverError}</Alert> : null}
      <form className="stack-sm" onSubmit={onSubmit} noValidate>
        <div className="price-form-grid">
          <Field
            label="Prefix"
            hint={
              price
                ? 'Another prefix is another entry.'
                : 'Digits only: a country code such as 44, or a range such as 4479'
            }
            error={errors.prefix?.message}
            inputProps={{
              ...register('prefix'),
              readOnly: Boolean(price),
              inputMode: 'numeric',
              autoComplete: 'off',
            }}
          />
          <Field
            label="Name"
            hint="The destination, such as United Kingdom mobile"
            error={errors.name?.message}
            inputProps={{ ...register('name'), autoComplete: 'off' }}
          />
          <Field
            label="Price per segment"
            hint="Up to 6 decimal places, such as 0.0725"
            error={errors.pricePerSegment?.message}
            inputProps={{
              ...register('pricePerSegment'),
              inputMode: 'decimal',
              autoComplete: 'off',
            }}
          />
        </div>
        <label className="checkbox-field">
          <input type="checkbox" {...register('blocked')} />
          Blocked: nobody can send to this destination
        </label>
        <FormActions
          submit="Save Price"
          pending={save.isPending}
          onCancel={onDone}
        />
      </form>
    </SectionCard>
  );
}
