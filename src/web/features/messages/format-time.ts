/** The console's one date-and-time form (src/web/lib/format.ts); the log once had its own. */
export { formatDateTime } from '../../lib/format';
