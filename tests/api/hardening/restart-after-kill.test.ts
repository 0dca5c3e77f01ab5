import { afterEach, describe, expect, it } from 'vitest';
import { httpClient } from '../../support/http.ts';
import {
  launchServer,
  migratedDataDir,
  processState,
  spawnServerInOwnGroup,
  stopServer,
  type GroupServer,
  type SpawnedServer,
} from '../../support/spawn-server.ts';

// Issue 9, finding 3: after `kill -9` of the server's process group the dead server stays a
// zombie until its parent reaps it, and a restart within that window was refused as "in use".
const groups: GroupServer[] = [];
const others: SpawnedServer[] = [];
afterEach(async () => {
  for (const server of groups.splice(0)) server.dispose();
  for (const server of others.splice(0)) await stopServer(server, 'SIGKILL');
});

async function startInGroup(dataDir: string): Promise<GroupServer> {
  const server = await spawnServerInOwnGroup({ DATA_DIR: dataDir });
  groups.push(server);
  return server;
}

describe.skipIf(process.platform !== 'linux')(
  'restart on the same DATA_DIR right after kill -9 of the process group',
  () => {
    it('comes up every time, even while the killed server is still a zombie', async () => {
      const dataDir = await migratedDataDir('zombie');
      let server = await startInGroup(dataDir);
      for (let round = 0; round < 3; round++) {
        server.killGroup();
        // The scenario of the finding: the pid still exists (kill(pid, 0) succeeds).
        // It becomes a zombie: dead, but its pid still answers kill(pid, 0).
        const pid = server.pid;
        await expect
          .poll(() => processState(pid), { timeout: 5_000, interval: 10 })
          .toBe('Z');
        const killed = server.pid;
        server = await startInGroup(dataDir);
        expect(server.pid).not.toBe(killed);
        const health = await httpClient(server.url).get('/api/health');
        expect(health.status, server.output()).toBe(200);
      }
    }, 120_000);

    it('still refuses a second live server on the DATA_DIR, naming the holder', async () => {
      const dataDir = await migratedDataDir('held');
      const first = await startInGroup(dataDir);
      const second = await launchServer({ DATA_DIR: dataDir });
      others.push(second);
      const { code } = await second.exited;
      expect(code).not.toBe(0);
      expect(second.output()).toContain(
        `DATA_DIR ${dataDir} is in use by another server (pid ${first.pid})`,
      );
      expect((await httpClient(first.url).get('/api/health')).status).toBe(200);
    }, 60_000);
  },
);
