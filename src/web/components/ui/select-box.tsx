import { useId } from 'react';
import { cx } from '../../lib/cx';
import './field.css';

export interface SelectOption {
  key: string;
  text: string;
}

/**
 * A labelled native select (keyboard and screen readers for free). Disabled, or with no
 * options, it shows `emptyText` ('No options available' unless told otherwise).
 */
export function SelectBox({
  label,
  options,
  value,
  onChange,
  disabled = false,
  emptyText = 'No options available',
  className,
  labelClassName,
}: {
  label: string;
  options: SelectOption[];
  value: string;
  onChange: (key: string) => void;
  disabled?: boolean;
  emptyText?: string;
  className?: string;
  labelClassName?: string;
}) {
  const id = useId();
  const empty = disabled || options.length === 0;
  return (
    <div className={cx('select-box', className)}>
      <label htmlFor={id} className={cx('field-label', labelClassName)}>
        {label}
      </label>
      <select
        id={id}
        className="input select"
        value={empty ? '' : value}
        disabled={empty}
        onChange={(event) => onChange(event.target.value)}
      >
        {empty ? (
          <option value="">{emptyText}</option>
        ) : (
          options.map((option) => (
            <option key={option.key} value={option.key}>
              {option.text}
            </option>
          ))
        )}
      </select>
    </div>
  );
}
