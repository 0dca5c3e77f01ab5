import { useState, type ReactNode } from 'react';
import { SECRET_MASK } from '../../../../shared/limits';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { CopyButton } from './copy-button';
import '../../../components/ui/field.css';

/**
 * A secret in a read-only field, masked as six dots (spec §4) until "Show" is pressed, with a
 * Copy button that copies it whether shown or not. `name` is how the buttons call it
 * ("secret" → Show secret, Hide secret, Copy secret); `actions` follow them on their row.
 */
export function SecretField({
  label,
  name,
  value,
  actions,
}: {
  label: string;
  name: string;
  value: string;
  actions?: ReactNode;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="stack-sm">
      <Field
        label={label}
        inputProps={{
          readOnly: true,
          value: visible ? value : SECRET_MASK,
          className: 'input mono',
          onFocus: (event) => event.currentTarget.select(),
        }}
      />
      <div className="row">
        <Button
          size="sm"
          aria-pressed={visible}
          onClick={() => setVisible((shown) => !shown)}
        >
          {visible ? `Hide ${name}` : `Show ${name}`}
        </Button>
        <CopyButton value={value} label={`Copy ${name}`} />
        {actions}
      </div>
    </div>
  );
}
