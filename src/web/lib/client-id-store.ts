/** The chosen client is kept in local storage under `clientId` (spec §3). */
const CLIENT_ID_KEY = 'clientId';

export function readClientId(): string | null {
  try {
    return window.localStorage.getItem(CLIENT_ID_KEY);
  } catch {
    return null;
  }
}

export function saveClientId(clientId: string): void {
  window.localStorage.setItem(CLIENT_ID_KEY, clientId);
}
