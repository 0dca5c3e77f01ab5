import {
  MAX_CLIENTS_MESSAGE,
  MAX_CLIENTS_PER_USER,
} from '../../../../shared/limits';
import { usePanel } from '../../../components/ui/side-panel';
import { useToast } from '../../../components/ui/toaster';
import { useClients } from '../api/get-clients';
import { CreateClientForm } from './create-client-form';

/**
 * Starts client creation: refused at once with the spec's message when 30 clients exist
 * (the server refuses too), else the New Client form opens in the side panel.
 */
export function useNewClient(): () => void {
  const panel = usePanel();
  const toast = useToast();
  const clients = useClients();
  return () => {
    if ((clients.data?.clients.length ?? 0) >= MAX_CLIENTS_PER_USER) {
      toast.show(MAX_CLIENTS_MESSAGE, { tone: 'danger', role: 'alert' });
      return;
    }
    panel.showPanel(<CreateClientForm />, { title: 'New Client' });
  };
}
