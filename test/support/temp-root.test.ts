/** Where the pass's temporary root goes: a memory file system when one is there with room. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { memoryDir } from "./temp-root.js";

/** The mount points of tmpfs file systems, from the kernel's mount table (not from statfs). */
function tmpfsMounts(): Set<string> {
  const mounts = readFileSync("/proc/mounts", "utf8").split("\n");
  return new Set(
    mounts
      .map((l) => l.split(" "))
      .filter((f) => f[2] === "tmpfs")
      .map((f) => f[1] ?? ""),
  );
}

describe("memoryDir", () => {
  it("takes /dev/shm exactly when the mount table says it is tmpfs", () => {
    expect(memoryDir("/dev/shm", 1)).toBe(tmpfsMounts().has("/dev/shm") ? "/dev/shm" : undefined);
  });

  it("refuses a disk file system, a missing directory, and a tmpfs without the room asked", () => {
    const repo = fileURLToPath(new URL("../../", import.meta.url));
    expect(tmpfsMounts().has(repo.replace(/\/$/, ""))).toBe(false);
    expect(memoryDir(repo, 1)).toBeUndefined();
    expect(memoryDir("/no/such/directory", 1)).toBeUndefined();
    expect(memoryDir("/dev/shm", Number.MAX_SAFE_INTEGER)).toBeUndefined();
  });
});
