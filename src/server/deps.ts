import { CredentialCache } from './auth/credential-cache.ts';
import { LoginThrottle } from './auth/login-throttle.ts';
import type { Principal } from './auth/principal.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { Waker } from './delivery/waker.ts';

/** What route plugins and services are built from: created once by buildApp. */
export interface Deps {
  config: Config;
  db: Db;
  /** Per node: each node verifies and caches credentials on its own. */
  credentials: CredentialCache<Principal>;
  /** Per node: failed logins counted by this node. */
  throttle: LoginThrottle;
  /** Told after each accepted send, so this node's delivery workers fetch at once. */
  deliveryWake: Waker;
}

export function createDeps(config: Config, db: Db): Deps {
  return {
    config,
    db,
    credentials: new CredentialCache<Principal>(),
    throttle: new LoginThrottle(),
    deliveryWake: new Waker(),
  };
}
