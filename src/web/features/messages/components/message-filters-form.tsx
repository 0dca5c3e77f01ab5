import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import {
  filtersFromForm,
  formFromFilters,
  hasFilters,
  MessageFiltersFormSchema,
  type MessageFilters,
  type MessageFiltersForm as FormValues,
  type MessageFiltersValues,
} from '../message-filters';
import { MESSAGE_STATES } from '../message-log-model';
import { stateText } from '../../../lib/message-states';
import './message-log.css';
import '../../../components/ui/field.css';

/**
 * State, recipient and a date range. Applying writes them to the URL (the list follows the
 * URL), so the form starts from the URL's filters each time they change.
 */
export function MessageFiltersForm({
  filters,
  onApply,
}: {
  filters: MessageFilters;
  onApply: (filters: MessageFilters) => void;
}) {
  const stateId = useId();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<FormValues, unknown, MessageFiltersValues>({
    resolver: zodResolver(MessageFiltersFormSchema),
    defaultValues: formFromFilters(filters),
  });

  return (
    <form
      className="card message-filters"
      aria-label="Message filters"
      noValidate
      // The batch is not a field: applying keeps it, Clear filters drops it too.
      onSubmit={handleSubmit((values) =>
        onApply({ ...filtersFromForm(values), batchId: filters.batchId }),
      )}
    >
      <div className="field">
        <label className="field-label" htmlFor={stateId}>
          State
        </label>
        <select id={stateId} className="input select" {...register('state')}>
          <option value="">All states</option>
          {MESSAGE_STATES.map((state) => (
            <option key={state} value={state}>
              {stateText(state)}
            </option>
          ))}
        </select>
      </div>
      <Field
        label="Recipient"
        error={errors.recipient?.message ?? ''}
        inputProps={{
          ...register('recipient'),
          type: 'search',
          inputMode: 'tel',
          autoComplete: 'off',
        }}
      />
      <Field
        label="Since"
        error={errors.since?.message ?? ''}
        inputProps={{ ...register('since'), type: 'date' }}
      />
      <Field
        label="Until"
        error={errors.until?.message ?? ''}
        inputProps={{ ...register('until'), type: 'date' }}
      />
      <div className="message-filters-actions">
        <Button type="submit" variant="primary">
          Apply filters
        </Button>
        {hasFilters(filters) ? (
          <Button variant="ghost" onClick={() => onApply({})}>
            Clear filters
          </Button>
        ) : null}
      </div>
    </form>
  );
}
