import { useState } from 'react';
import { SECRET_MASK } from '../../../../shared/limits';
import type { ClientWithSecret } from '../../../../shared/schemas/clients';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { CopyButton } from './copy-button';
import '../../../components/ui/field.css';

/**
 * The one showing of a client's secret (spec §4): masked as six dots until shown, with copy
 * buttons for the id and the secret. Read-only inputs keep both selectable by hand.
 */
export function ClientSecret({ client }: { client: ClientWithSecret }) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="stack">
      <Alert tone="warning" role="status">
        Copy the secret now: it is shown only once and cannot be retrieved
        later.
      </Alert>
      <div className="stack-sm">
        <div className="field-label">Client name</div>
        <div className="card-title">{client.name}</div>
      </div>
      <div className="stack-sm">
        <Field
          label="Client ID"
          inputProps={{
            readOnly: true,
            value: client.id,
            className: 'input mono',
            onFocus: (event) => event.currentTarget.select(),
          }}
        />
        <div className="row">
          <CopyButton value={client.id} label="Copy client ID" />
        </div>
      </div>
      <div className="stack-sm">
        <Field
          label="Client secret"
          inputProps={{
            readOnly: true,
            value: visible ? client.secret : SECRET_MASK,
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
            {visible ? 'Hide secret' : 'Show secret'}
          </Button>
          <CopyButton value={client.secret} label="Copy secret" />
        </div>
      </div>
    </div>
  );
}
