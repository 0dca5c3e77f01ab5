import type { ClientWithSecret } from '../../../../shared/schemas/clients';
import { Alert } from '../../../components/ui/alert';
import { Field } from '../../../components/ui/field';
import { CopyButton } from './copy-button';
import { SecretField } from './secret-field';
import '../../../components/ui/field.css';

/**
 * The one showing of a client's secret (spec §4): masked as six dots until shown, with copy
 * buttons for the id and the secret. Read-only inputs keep both selectable by hand.
 */
export function ClientSecret({ client }: { client: ClientWithSecret }) {
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
      <SecretField label="Client secret" name="secret" value={client.secret} />
    </div>
  );
}
