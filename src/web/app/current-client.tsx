import { createContext, useContext } from 'react';
import type { Client } from '../../shared/schemas/clients';

/** The shell's client state (spec §3): the list, the current client, and how to choose one. */
export interface CurrentClientState {
  clients: Client[];
  currentClient: Client | null;
  selectClient: (clientId: string) => void;
}

export const CurrentClientContext = createContext<CurrentClientState | null>(
  null,
);

export function useCurrentClient(): CurrentClientState {
  const state = useContext(CurrentClientContext);
  if (!state) throw new Error('useCurrentClient is only for customer screens');
  return state;
}
