import type { CredentialCache } from './auth/credential-cache.ts';
import type { LoginThrottle } from './auth/login-throttle.ts';
import type { Principal } from './auth/principal.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';

/** What route plugins and services are built from: created once by buildApp. */
export interface Deps {
  config: Config;
  db: Db;
  credentials: CredentialCache<Principal>;
  throttle: LoginThrottle;
}
