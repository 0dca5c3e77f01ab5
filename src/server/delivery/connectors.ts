/**
 * The connector of each delivery method, from the configuration: one row per method in
 * CONNECTORS, and the built-in simulator for a method with no configuration.
 */
import type { DeliveryConfig } from '../config.ts';
import { Semaphore } from '../semaphore.ts';
import { DELIVERY_METHODS } from '../../shared/limits.ts';
import { HTTP_REQUESTS_PER_TRY } from './policy.ts';
import { createSimulator } from './simulator.ts';
import {
  createSmppConnector,
  type SmppConnectorOptions,
} from './smpp/connector.ts';
import type { Connector, DeliveryLogger, DeliveryMethod } from './types.ts';
import { createVonageConnector } from './vonage/connector.ts';
import {
  VONAGE_RECEIPT_PATH,
  GENERIC_GATEWAY_RECEIPT_PATH,
} from './webhook-paths.ts';
import { createGenericGatewayConnector } from './generic-gateway/connector.ts';

/** Requests in flight at once to one HTTP provider (Vonage, the gateway). */
export const HTTP_CONCURRENCY = 10;

export interface ConnectorSettings {
  config: DeliveryConfig;
  logger: DeliveryLogger;
  /** Tests: the simulator's delay before its DELIVERED receipt (default 200 ms). */
  simulatorDelayMs?: number | undefined;
  /** Tests: the SMPP connector's timers. */
  smpp?:
    | Pick<
        SmppConnectorOptions,
        | 'pendingTimeoutMs'
        | 'reconnectMinMs'
        | 'reconnectMaxMs'
        | 'unboundWaitMs'
      >
    | undefined;
}

export interface ConnectorEntry {
  connector: Connector;
  simulated: boolean;
  /**
   * Messages this connector may have submitted and not yet recorded (see
   * UNRECORDED_PER_WINDOW_SLOT in engine.ts); null: unbounded (the simulator).
   */
  slots: Semaphore | null;
}

/**
 * A configured method's connector and how many of its messages may be in flight at once (its
 * window); undefined when the method is not configured (it goes to the simulator).
 */
type ConnectorFactory = (
  settings: ConnectorSettings,
) => { connector: Connector; window: number } | undefined;

const CONNECTORS: Record<DeliveryMethod, ConnectorFactory> = {
  MELROSE_SMPP: ({ config, logger, smpp: timers }) => {
    const smpp = config.smpp;
    if (!smpp) return undefined;
    return {
      connector: createSmppConnector({
        host: smpp.host,
        port: smpp.port,
        systemId: smpp.systemId,
        password: smpp.password,
        systemType: smpp.systemType,
        window: smpp.window,
        maxTps: smpp.maxTps,
        validitySeconds: config.messageValiditySeconds,
        logger,
        // Well within the job's expiry, so a stuck bind hands the message back to the queue
        // (retry) before the queue thinks its worker died.
        pendingTimeoutMs: 30_000,
        ...timers,
      }),
      window: smpp.window,
    };
  },
  VONAGE_SMS: ({ config, logger }) =>
    config.vonage && {
      connector: createVonageConnector({
        ...config.vonage,
        callbackUrl: `${config.publicUrl}${VONAGE_RECEIPT_PATH}`,
        timeoutMs: config.providerTimeoutMs,
        concurrency: HTTP_CONCURRENCY,
        maxAttempts: HTTP_REQUESTS_PER_TRY,
        logger,
      }),
      window: HTTP_CONCURRENCY,
    },
  WORLD_SPECIAL: ({ config, logger }) =>
    config.genericGateway && {
      connector: createGenericGatewayConnector({
        ...config.genericGateway,
        statusUrl: `${config.publicUrl}${GENERIC_GATEWAY_RECEIPT_PATH}`,
        timeoutMs: config.providerTimeoutMs,
        concurrency: HTTP_CONCURRENCY,
        maxAttempts: HTTP_REQUESTS_PER_TRY,
        logger,
      }),
      window: HTTP_CONCURRENCY,
    },
};

/** Whether each method has the configuration of a real connector (CONNECTORS' conditions). */
const CONFIGURED: Record<DeliveryMethod, (config: DeliveryConfig) => boolean> =
  {
    MELROSE_SMPP: (config) => Boolean(config.smpp),
    VONAGE_SMS: (config) => Boolean(config.vonage),
    WORLD_SPECIAL: (config) => Boolean(config.genericGateway),
  };

/**
 * The methods with no connector configured, whose messages go to the built-in simulator (which
 * reports them DELIVERED): the start log, /metrics and the Operations screen say so.
 */
export function simulatedMethods(config: DeliveryConfig): DeliveryMethod[] {
  return DELIVERY_METHODS.filter((method) => !CONFIGURED[method](config));
}

/**
 * Every method's connector: the configured ones, each with `unrecordedPerSlot` × its window
 * slots for messages submitted and not yet recorded, and the simulator for the others, each
 * announced by a warning (CONTRACT.md "The simulator is never silent": once per method, at start).
 */
export function connectorsFor(
  settings: ConnectorSettings,
  unrecordedPerSlot: number,
): Map<DeliveryMethod, ConnectorEntry> {
  const entries = new Map<DeliveryMethod, ConnectorEntry>();
  for (const method of DELIVERY_METHODS) {
    const configured = CONFIGURED[method](settings.config)
      ? CONNECTORS[method](settings)
      : undefined;
    entries.set(
      method,
      configured
        ? {
            connector: configured.connector,
            simulated: false,
            slots: new Semaphore(configured.window * unrecordedPerSlot),
          }
        : {
            connector: createSimulator(method, settings.simulatorDelayMs),
            simulated: true,
            slots: null,
          },
    );
    if (!configured) {
      settings.logger.warn(
        { method, simulated: true },
        `delivery method ${method} has no connector configured: its messages go to the built-in simulator, which reports them DELIVERED without sending anything`,
      );
    }
  }
  return entries;
}

/** The connectors that hold a connection of their own (the SMPP bind): whether each is up. */
export function bindsOf(
  connectors: ReadonlyMap<DeliveryMethod, ConnectorEntry>,
): Partial<Record<DeliveryMethod, boolean>> {
  const up: Partial<Record<DeliveryMethod, boolean>> = {};
  for (const [method, { connector }] of connectors) {
    if (connector.isUp) up[method] = connector.isUp();
  }
  return up;
}
