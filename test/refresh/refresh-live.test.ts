import { describe, expect, test } from "vitest";
import { loadCampaign } from "../../cli/adapters/load-campaign.js";
import { createApiClient } from "../../src/api/index.js";
import { type CacheSnapshot, type CacheStore, emptySnapshot } from "../../src/plan/cache.js";
import { refreshLive } from "../../src/plan/refresh.js";
import { statsWindows } from "../../src/plan/refresh-stats.js";
import { startSandbox } from "../../src/sandbox/index.js";
import {
  campaignFile,
  fileProject,
  KEY,
  liveProject,
  MEDIA,
  ORG,
  pid,
  tempDir,
  world,
} from "../plan-command/fixture-builder.js";

const DAY = 86_400_000;

describe("stats windows", () => {
  test.each(["2026-03-01T00:00:00Z", "2026-12-31T23:59:59.999Z", "2024-02-29T12:00:00Z"])(
    "valid under the strictest reading and covering today-89..today (%s)",
    (at) => {
      const now = new Date(at);
      const today = Date.parse(`${at.slice(0, 10)}T00:00:00Z`);
      const windows = statsWindows(now);
      expect(windows[0]?.endDate).toBe(at.slice(0, 10));
      let next = today;
      for (const w of windows) {
        const start = Date.parse(`${w.startDate}T00:00:00Z`);
        const end = Date.parse(`${w.endDate}T00:00:00Z`);
        expect(end).toBe(next);
        expect((end - start) / DAY + 1).toBeLessThanOrEqual(31);
        expect(start).toBeGreaterThanOrEqual(today - 89 * DAY);
        expect(w.startMs).toBe(start);
        next = start - DAY;
      }
      expect(next + DAY).toBe(today - 89 * DAY);
    },
  );
});

/** A cache in memory: the real interface, kept in a variable. */
function memoryCache(): CacheStore & { saved: CacheSnapshot } {
  const store = {
    saved: emptySnapshot(),
    read: async () => ({ snapshot: store.saved, diagnostics: [] }),
    write: async (_org: string, snapshot: CacheSnapshot) => {
      store.saved = JSON.parse(JSON.stringify(snapshot)) as CacheSnapshot;
      return [];
    },
  };
  return store;
}

describe("refreshLive against the sandbox", () => {
  test("reads by id only what the stats windows say changed, and what no window lists and no cache holds", async () => {
    const now = new Date("2026-10-01T12:00:00Z");
    const ago = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
    const live = [
      liveProject(1, now, { created_at: ago(200), updated_at: ago(2) }),
      liveProject(2, now, { created_at: ago(200), updated_at: ago(50), media_ids: [MEDIA] }),
      liveProject(3, now, { created_at: ago(200), updated_at: ago(80) }),
      liveProject(4, now, { created_at: ago(200), updated_at: ago(150) }),
    ];
    const sandbox = await startSandbox({ fixture: world(live, { now }), timeScale: 0 });
    const client = createApiClient({
      baseUrl: sandbox.baseUrl,
      apiKey: KEY,
      clock: { now: () => sandbox.clock.nowMs() },
      sleep: (ms) => sandbox.clock.advance(ms),
    });
    try {
      const dir = tempDir({
        "c.yaml": campaignFile({
          a: fileProject(1),
          b: fileProject(2, { media: ["poster.png"] }),
          c: fileProject(3),
          d: fileProject(4),
          e: fileProject(9),
        }),
      });
      const campaign = loadCampaign(["."], dir).campaign;
      const cache = memoryCache();
      const cold = await refreshLive({ campaign, reader: client, cache, now, refresh: false });
      if (!cold.ok) throw new Error(JSON.stringify(cold.diagnostics));
      expect(cold.organizationId).toBe(ORG);
      expect(cold.requests.by_endpoint).toEqual({
        "GET /campaigns": 1,
        "GET /contact-lists": 1,
        "GET /media/{id}": 1,
        "GET /organizations": 1,
        "GET /phone-numbers": 1,
        "GET /projects/stats": 3,
        "GET /projects/{id}": 5,
      });
      expect(cold.live.projects.get(pid(9))).toEqual({ kind: "not-found" });
      expect(cold.live.media.get(MEDIA)?.kind).toBe("found");
      expect(Object.keys(cache.saved.projects).sort()).toEqual([pid(1), pid(2), pid(3), pid(4)]);

      const warm = await refreshLive({ campaign, reader: client, cache, now, refresh: false });
      if (!warm.ok) throw new Error(JSON.stringify(warm.diagnostics));
      // The missing project 9 is read again (404s are not cached); 1-4 come from the cache.
      expect(warm.requests.by_endpoint["GET /projects/{id}"]).toBe(1);
      expect(warm.requests.by_endpoint["GET /media/{id}"]).toBeUndefined();
      expect(warm.live.projects.get(pid(4))?.kind).toBe("found");

      const refreshed = await refreshLive({ campaign, reader: client, cache, now, refresh: true });
      expect(refreshed.ok && refreshed.requests.by_endpoint["GET /projects/{id}"]).toBe(5);
      expect(JSON.stringify(cache.saved)).not.toContain(KEY);
    } finally {
      await client.close();
      await sandbox.close();
    }
  });
});
