import { z } from 'zod';
import { DELIVERY_METHODS } from '../limits.ts';

/** One delivery method on the Operations screen: the last hour's messages routed to it. */
export const OperationsMethodSchema = z.object({
  method: z.enum(DELIVERY_METHODS),
  /** Messages accepted in the last hour whose latest attempt was on this method, by state. */
  states: z.record(z.string(), z.number().int().nonnegative()),
  /** Seconds from acceptance to a provider taking the message (null: none in the hour). */
  latency: z.object({
    p50: z.number().nullable(),
    p95: z.number().nullable(),
  }),
  /**
   * True when the method has no connector configured on the answering node: its messages go to
   * the built-in simulator, which reports them DELIVERED without sending anything.
   */
  simulated: z.boolean(),
  /** The answering node's connection to the method (the SMPP bind): null when it holds none. */
  bound: z.boolean().nullable(),
  /** Messages routed to this method per minute, oldest first, the 60 minutes from `since`. */
  perMinute: z.array(z.number().int().nonnegative()),
  /**
   * Inbound messages received through this method and stored (to a number a client holds), on
   * every node: since `since`, and in the last 24 hours.
   */
  inbound: z.object({
    lastHour: z.number().int().nonnegative(),
    lastDay: z.number().int().nonnegative(),
  }),
});

/** Backups (npm run backup, BACKUP_DIR): from the database, the same on every node. */
export const OperationsBackupSchema = z.object({
  /** When the last successful backup finished; null: none yet. */
  lastSuccessAt: z.iso.datetime().nullable(),
  /** The last attempt, successful or not. */
  last: z
    .object({
      kind: z.enum(['manual', 'scheduled']),
      finishedAt: z.iso.datetime(),
      ok: z.boolean(),
      error: z.string().nullable(),
    })
    .nullable(),
  /** BACKUP_DIR's schedule on the answering node; null: no scheduled backups. */
  schedule: z
    .object({
      intervalHours: z.number().positive(),
      keep: z.number().int().min(1),
    })
    .nullable(),
});

export const OperationsSchema = z.object({
  /** Start of the hour shown: a whole minute, 59 minutes before the current one. */
  since: z.iso.datetime(),
  /** Delivery jobs waiting for a worker, on every node. */
  queueDepth: z.number().int().nonnegative(),
  /** Messages of the hour not routed yet (no attempt), by state. */
  unrouted: z.record(z.string(), z.number().int().nonnegative()),
  methods: z.array(OperationsMethodSchema),
  backup: OperationsBackupSchema,
});

export type Operations = z.infer<typeof OperationsSchema>;
export type OperationsBackup = z.infer<typeof OperationsBackupSchema>;
export type OperationsMethod = z.infer<typeof OperationsMethodSchema>;
