import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import {
  AUDIT_ACTIONS,
  AuditFilterSchema,
  type AuditFilter,
} from '../../../../shared/schemas/audit';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import './audit.css';
import '../../../components/ui/field.css';

const EMPTY: AuditFilter = {
  action: '',
  actorUserId: '',
  targetId: '',
  since: '',
  until: '',
};

/** The audit log's filters; Apply hands checked values to the screen, which puts them in the URL. */
export function AuditFilters({
  value,
  onApply,
}: {
  value: AuditFilter;
  onApply: (filter: AuditFilter) => void;
}) {
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<AuditFilter>({
    resolver: zodResolver(AuditFilterSchema),
    values: value,
  });

  return (
    <form
      className="card audit-filters"
      aria-label="Filters"
      noValidate
      onSubmit={handleSubmit(onApply)}
    >
      <div className="field">
        <label className="field-label" htmlFor="audit-action">
          Action
        </label>
        <select
          id="audit-action"
          className="input select"
          {...register('action')}
        >
          <option value="">Any action</option>
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {action}
            </option>
          ))}
        </select>
      </div>
      <Field
        label="Actor user ID"
        error={errors.actorUserId?.message ?? ''}
        inputProps={{
          ...register('actorUserId'),
          autoComplete: 'off',
          spellCheck: false,
          className: 'mono',
        }}
      />
      <Field
        label="Target ID"
        error={errors.targetId?.message ?? ''}
        inputProps={{
          ...register('targetId'),
          autoComplete: 'off',
          spellCheck: false,
          className: 'mono',
        }}
      />
      <Field
        label="Since (UTC)"
        error={errors.since?.message ?? ''}
        inputProps={{ ...register('since'), type: 'date' }}
      />
      <Field
        label="Until (UTC)"
        error={errors.until?.message ?? ''}
        inputProps={{ ...register('until'), type: 'date' }}
      />
      <div className="audit-filter-actions">
        <Button type="submit" variant="primary">
          Apply
        </Button>
        <Button
          onClick={() => {
            reset(EMPTY);
            onApply(EMPTY);
          }}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}
