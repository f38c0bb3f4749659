/**
 * The Neovim set-up of docs/editors.md, run for real (issue 35 point 2): the docs' Lua block (the
 * same text as editors/neovim/campaignctl.lua) is the `-u` file of a headless `nvim --clean`, with
 * `campaignctl` on PATH running the built CLI, on a campaign file with nine findings (one after an
 * emoji, so positions are counted in UTF-16 by the server and in bytes by Neovim). A driver waits,
 * bounded, for the diagnostics to arrive and writes `vim.diagnostic.get()` as JSON; they must be
 * `validate --json`'s for that file: code, range and severity. Which branch of the snippet ran is
 * recorded by spies on the functions it may call: on Neovim 0.7 the `start_client` branch, for
 * real. The 0.8-0.10 branch (`vim.lsp.start`, `vim.fs.root`) is also run on 0.7, with those two
 * supplied from 0.7's own functions (it checks the branch's logic, not a real 0.8).
 *
 * Without nvim on the machine the tests are skipped and this file says so on the console; with
 * CI=true a missing nvim fails here (.ci/run installs Debian's `neovim`), so CI never passes with
 * them skipped.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateAsLsp } from "../cli/lsp-session.js";
import { BUILT_CLI } from "../helpers/run-cli.js";

const IN_CI = process.env.CI === "true";
const versionLine = spawnSync("nvim", ["--version"], { encoding: "utf8" }).stdout?.split("\n")[0] ?? "";
const version = /^NVIM v(\d+)\.(\d+)\.(\d+)/.exec(versionLine)?.slice(1).map(Number);
if (version === undefined && !IN_CI)
  console.warn("Neovim tests skipped: nvim is not installed (apt-get install neovim)");

/** The docs' Lua block, which is what a reader copies. */
function documentedSnippet(): string {
  const text = readFileSync("docs/editors.md", "utf8");
  const section = text.slice(text.indexOf("\n## Neovim"), text.indexOf("\n## Helix"));
  return /```lua\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
}

/**
 * Records each call of the functions the snippet may start the server with, in order, into
 * `_G.campaignctl_calls`; `vim.lsp.config` is a callable table on 0.11 and is left alone.
 */
const PROBE = `_G.campaignctl_calls = {}
local function spy(tbl, name)
  local f = tbl and tbl[name]
  if type(f) ~= "function" then return end
  tbl[name] = function(...)
    table.insert(_G.campaignctl_calls, name)
    return f(...)
  end
end
spy(vim.lsp, "start")
spy(vim.lsp, "start_client")
spy(vim.lsp, "enable")
spy(vim.fs, "root")
`;

/**
 * On Neovim 0.7, what 0.8 and 0.10 add that the snippet's middle branch uses, made from 0.7's own
 * functions: `vim.lsp.start` (reuse the client of the same name and root, else start one; attach)
 * and `vim.fs.root` (the nearest directory above the buffer's file holding a marker).
 */
const SHIM_0_10 = `if not vim.lsp.start then
  vim.lsp.start = function(config, opts)
    local buf = (opts and opts.bufnr) or vim.api.nvim_get_current_buf()
    for _, c in pairs(vim.lsp.get_active_clients()) do
      if c.name == config.name and c.config.root_dir == config.root_dir then
        vim.lsp.buf_attach_client(buf, c.id)
        return c.id
      end
    end
    local id = vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(buf, id)
    return id
  end
end
vim.fs = vim.fs or {}
if not vim.fs.root then
  vim.fs.root = function(buf, markers)
    local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ":p:h")
    while true do
      for _, marker in ipairs(markers) do
        if vim.loop.fs_stat(dir .. "/" .. marker) then return dir end
      end
      local up = vim.fn.fnamemodify(dir, ":h")
      if up == dir then return nil end
      dir = up
    end
  end
end
`;

/** Waits (bounded) for the diagnostics, writes them, the clients and the calls as JSON, and quits. */
const DRIVER = `local buf = vim.api.nvim_get_current_buf()
local arrived = vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
local list = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local lsp = (d.user_data and d.user_data.lsp) or {}
  table.insert(list, {
    lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
    severity = d.severity, code = d.code or lsp.code, source = d.source, message = d.message,
  })
end
local clients = {}
for _, c in pairs((vim.lsp.get_clients or vim.lsp.get_active_clients)()) do
  table.insert(clients, { name = c.name, root_dir = c.config.root_dir })
end
local out = io.open(os.getenv("CAMPAIGNCTL_NVIM_OUT"), "w")
out:write(vim.json.encode({
  arrived = arrived, filetype = vim.bo[buf].filetype, diagnostics = list, clients = clients,
  calls = _G.campaignctl_calls,
}))
out:close()
vim.cmd("qa!")
`;

interface NvimDiagnostic {
  readonly lnum: number;
  readonly col: number;
  readonly end_lnum: number;
  readonly end_col: number;
  readonly severity: number;
  readonly code: string;
  readonly source: string;
  readonly message: string;
}

interface NvimResult {
  readonly arrived: boolean;
  readonly filetype: string;
  readonly diagnostics: readonly NvimDiagnostic[];
  readonly clients: readonly { name: string; root_dir: string }[];
  readonly calls: readonly string[];
}

/** A workspace folder with a campaign file and a policy, and `campaignctl` on a PATH of its own. */
function workspace(): { dir: string; file: string; text: string; bin: string } {
  const root = mkdtempSync(join(tmpdir(), "campaignctl-nvim-"));
  const dir = join(root, "campaigns");
  const bin = join(root, "bin");
  mkdirSync(dir);
  mkdirSync(bin);
  // Issue 27's file with its schedules in 2099: no finding depends on today's date.
  const text = readFileSync("test/fixtures/lsp/seven-mistakes.yaml", "utf8").replaceAll(
    "2026-12-",
    "2099-12-",
  );
  const file = join(dir, "campaign.yaml");
  writeFileSync(file, text);
  copyFileSync("test/fixtures/lsp/campaignctl.policy.yaml", join(dir, "campaignctl.policy.yaml"));
  const shim = join(bin, "campaignctl");
  writeFileSync(
    shim,
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BUILT_CLI)} "$@"\n`,
  );
  chmodSync(shim, 0o755);
  return { dir, file, text, bin };
}

/** Runs `nvim --headless --clean -u INIT -c "luafile DRIVER" FILE` with the snippet after `before`. */
async function runNeovim(before: string, snippet: string): Promise<NvimResult> {
  const ws = workspace();
  const root = join(ws.dir, "..");
  const snippetFile = join(root, "campaignctl.lua");
  writeFileSync(snippetFile, snippet);
  const init = join(root, "init.lua");
  writeFileSync(init, `${before}\n${PROBE}\ndofile(${JSON.stringify(snippetFile)})\n`);
  const driver = join(root, "driver.lua");
  writeFileSync(driver, DRIVER);
  const out = join(root, "out.json");
  const state = join(root, "xdg");
  const child = spawn("nvim", ["--headless", "--clean", "-u", init, "-c", `luafile ${driver}`, ws.file], {
    cwd: ws.dir,
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 90_000,
    env: {
      ...process.env,
      PATH: `${ws.bin}:${process.env.PATH ?? ""}`,
      CAMPAIGNCTL_NVIM_OUT: out,
      // Neovim's log, shada and the LSP log go here, not to the home directory.
      XDG_CACHE_HOME: join(state, "cache"),
      XDG_STATE_HOME: join(state, "state"),
      XDG_DATA_HOME: join(state, "data"),
      XDG_CONFIG_HOME: join(state, "config"),
    },
  });
  let stderr = "";
  child.stderr?.on("data", (b: Buffer) => {
    stderr += b.toString("utf8");
  });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  expect(code, stderr).toBe(0);
  // An error in the snippet (`attempt to call field 'config'` on 0.7) is said on stderr.
  expect(stderr).not.toMatch(/Error|E\d+:/);
  const result = JSON.parse(readFileSync(out, "utf8")) as NvimResult;
  expect(result.filetype).toBe("yaml");
  expect(result.arrived, "no diagnostics arrived within 30 s").toBe(true);
  expect(result.clients).toEqual([{ name: "campaignctl", root_dir: ws.dir }]);
  // The diagnostics Neovim holds, positions back in UTF-16 (Neovim's columns are bytes).
  const lines = ws.text.split("\n");
  const utf16 = (line: number, byte: number) =>
    Buffer.from(lines[line] ?? "", "utf8")
      .subarray(0, byte)
      .toString("utf8").length;
  const held = result.diagnostics.map((d) => {
    expect(d.source).toBe("campaignctl");
    expect(d.message).not.toBe("");
    return {
      code: d.code,
      range: {
        start: { line: d.lnum, character: utf16(d.lnum, d.col) },
        end: { line: d.end_lnum, character: utf16(d.end_lnum, d.end_col) },
      },
      severity: d.severity,
    };
  });
  const expected = await validateAsLsp(ws.file, ws.text);
  expect(expected).toHaveLength(9);
  expect(sorted(held)).toEqual(sorted(expected));
  return result;
}

type Compared = { code?: unknown; range: { start: { line: number; character: number } } };

function sorted<T extends Compared>(list: readonly T[]): T[] {
  const key = (d: T) =>
    `${String(d.range.start.line).padStart(6, "0")}:${String(d.range.start.character).padStart(6, "0")}:${String(d.code)}`;
  return [...list].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** The calls that say which branch ran, for the Neovim that runs. */
function branchOf(calls: readonly string[]): string {
  if (calls.includes("enable")) return "0.11: vim.lsp.enable";
  if (calls.includes("start"))
    return `0.8-0.10: vim.lsp.start${calls.includes("root") ? ", vim.fs.root" : ""}`;
  if (calls.includes("start_client")) return "0.7: vim.lsp.start_client";
  return "none";
}

describe("the Neovim set-up of docs/editors.md", () => {
  it.runIf(IN_CI)("with CI=true, nvim is installed, so these tests really run", () => {
    expect(version, "CI=true but nvim is missing: .ci/run must install Debian's neovim").toBeDefined();
  });

  it(".ci/run installs Debian's neovim with the other packages the suite needs", () => {
    expect(readFileSync(".ci/run", "utf8")).toMatch(/apt-get install -y -qq [a-z ]*\bneovim\b/);
  });

  it("is editors/neovim/campaignctl.lua, word for word", () => {
    expect(documentedSnippet()).toBe(readFileSync("editors/neovim/campaignctl.lua", "utf8"));
  });

  it.runIf(version !== undefined)(
    `${versionLine}: its diagnostics are validate --json's, through the branch of this version`,
    async () => {
      const [major = 0, minor = 0] = version ?? [];
      const result = await runNeovim("", documentedSnippet());
      const want =
        major > 0 || minor >= 11
          ? "0.11: vim.lsp.enable"
          : minor >= 10
            ? "0.8-0.10: vim.lsp.start, vim.fs.root"
            : minor >= 8
              ? "0.8-0.10: vim.lsp.start"
              : "0.7: vim.lsp.start_client";
      expect(branchOf(result.calls)).toBe(want);
    },
    120_000,
  );

  it.runIf(version !== undefined && version[0] === 0 && version[1] !== undefined && version[1] < 10)(
    "the 0.8-0.10 branch, on this Neovim with vim.lsp.start and vim.fs.root supplied: the same diagnostics",
    async () => {
      const result = await runNeovim(SHIM_0_10, documentedSnippet());
      expect(branchOf(result.calls)).toBe("0.8-0.10: vim.lsp.start, vim.fs.root");
      expect(result.calls).not.toContain("enable");
    },
    120_000,
  );
});
