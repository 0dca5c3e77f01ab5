import type {
  Client,
  ClientKeyUsage,
} from '../../../../shared/schemas/clients';
import { formatDateTime } from '../../../lib/format';

/** When the client's secret last authenticated a call, or 'Never' (CONTRACT.md). */
export function secretLastUsedText(
  client: Client & Partial<ClientKeyUsage>,
): string {
  return client.secretLastUsedAt
    ? formatDateTime(client.secretLastUsedAt)
    : 'Never';
}
