// After `tsc`: copies the JSON schemas next to the compiled code (so `dist/src/**` finds them at
// the same relative path as `src/**` does), then bundles the compiled bin, dist/cli/main.js, with
// esbuild, over itself, and makes it executable.
//
// Why a bundle (issue 36): a run of `validate` on a small file loaded about 230 modules (the `yaml`
// package alone is 72 CommonJS files), and Node resolves, reads and compiles each on its own (a
// realpath and a package.json lookup per import). The bundle is split at every dynamic `import()`
// (`splitting`), so a command still loads only the code it needs: the registrations and commands
// stay lazy (cli/program.ts), and so do the language server and the rest; a run loads a few dozen
// chunks instead of hundreds of files. Every chunk is in dist/cli beside the entry, and each
// module's `import.meta.url` is rewritten to the URL its compiled file has (`new URL(relative path,
// import.meta.url)`), so paths found from it (the schemas, the worker thread, the package root) are
// the same as unbundled. Validate's worker thread (dist/cli/validate/validate-worker.js, started
// only on 3 cores or more) stays unbundled, as do the other compiled files (tests and tools import
// them). dist/bundle-meta.json (esbuild's metafile, not shipped) says which module is in which
// chunk: test/cli/lazy-commands.test.ts reads it to tell which modules a run loaded.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { build } from "esbuild";
import { BUNDLE_PARAMETERS, bundleFiles, CACHED_BUNDLES } from "../dist/cli/lifecycle/code-cache.js";

const CLI = "dist/cli";
/** What every chunk starts with: `require` for the CommonJS packages bundled into ES modules. */
const BANNER =
  'import { createRequire as __campaignctlRequire } from "node:module"; const require = __campaignctlRequire(import.meta.url);';
/** Marks a bundled entry, so a second run without `tsc` before it stops instead of bundling a bundle. */
const BUNDLED = "// campaignctl bundle";

cpSync("schemas", "dist/schemas", { recursive: true });
await writeBuiltExample();

if (readFileSync(join(CLI, "main.js"), "utf8").includes(BUNDLED))
  throw new Error(`${CLI}/main.js is already a bundle: run tsc (npm run build) before this script`);
// The chunks of the last build go: their names change with their contents.
for (const name of readdirSync(CLI)) if (/^chunk-[A-Z0-9]+\.js$/.test(name)) rmSync(join(CLI, name));
rmSync(join(CLI, "code-cache"), { recursive: true, force: true });

/**
 * The compiled modules as bundled. Each one's `import.meta.url` is the URL of its own file,
 * whichever chunk it lands in: `base` is an expression for the URL of a file in dist/cli (the
 * chunk's own `import.meta.url`, or the one code-cached bundles are given: cli/lifecycle/code-cache.ts
 * BUNDLE_BASE). The generated validators (scripts/gen-validators.mjs) `require` ajv's runtime helpers
 * and ajv-formats through their own `createRequire`, which esbuild leaves to Node's CommonJS loader
 * (a package.json lookup, a read and a compile each, about 5 ms at start-up): without that line,
 * their `require` is the bundle's, and the helpers are bundled.
 */
function compiledModules(base) {
  return {
    name: "compiled-modules",
    setup(build) {
      build.onLoad({ filter: /[\\/]dist[\\/](cli|src)[\\/].*\.js$/ }, (args) => {
        let text = readFileSync(args.path, "utf8");
        if (/[\\/]generated[\\/]validate-[a-z-]+\.js$/.test(args.path))
          text = text
            .replace(OWN_REQUIRE, "")
            .replace(/^import \{ createRequire \} from "node:module";\n/m, "");
        text = text.replace(NAMED_FROM_COMMONJS, namedOnce);
        if (!text.includes("import.meta.url")) return { contents: text, loader: "js" };
        const own = relative(resolve(CLI), args.path).split("\\").join("/");
        const url = `new URL(${JSON.stringify(own)}, ${base}).href`;
        return { contents: text.replaceAll("import.meta.url", url), loader: "js" };
      });
    },
  };
}

/**
 * A compiled module's named imports of a CommonJS package that runs per node of every file: `yaml`
 * (its node tests `isScalar`, `isMap`, ... run for every node the walk and the locators visit).
 * esbuild gives a CommonJS package's named imports to an ES module as getters on a namespace object
 * (a live binding: `(0, import_yaml.isScalar)(node)`), so every call first calls a getter, one shared
 * by all the package's names (`() => from[key]`, a keyed load V8 cannot specialize): about 1 % of
 * `validate`'s CPU over 10,000 projects (issue 36). Rewritten to read each name once, at the module's
 * start, from the namespace (`import * as`): the same values Node's own loader gives the unbundled
 * module (a CommonJS package's named exports are read once, when it is loaded), and the calls are
 * then plain calls.
 */
const NAMED_FROM_COMMONJS = /^import \{([^}]*)\} from "(yaml)";$/gm;
let namespaces = 0;

/** `import { a, b as c } from "p";` as `import * as ns from "p"; const { a, b: c } = ns;`. */
function namedOnce(_line, names, from) {
  const ns = `__campaignctlNamespace${namespaces++}`;
  const bindings = names
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "")
    .map((name) => name.replace(/^(\S+)\s+as\s+(\S+)$/, "$1: $2"));
  return `import * as ${ns} from "${from}"; const { ${bindings.join(", ")} } = ${ns};`;
}

/** A generated validator's own `require` (scripts/gen-validators.mjs). */
const OWN_REQUIRE = /^const require = createRequire\(import\.meta\.url\);\n/m;

const result = await build({
  entryPoints: [join(CLI, "main.js")],
  outdir: CLI,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  // Every chunk in dist/cli, named chunk-<hash>.js (the rewritten `import.meta.url` needs that).
  chunkNames: "chunk-[hash]",
  format: "esm",
  platform: "node",
  target: "node20.19",
  // Left to Node: the HTTP client and the PostgreSQL driver (with its optional native binding),
  // each loaded by an `import()` on first use. They are CommonJS, and an `import()` of a bundled
  // CommonJS chunk has only a default export where Node gives the named ones too (undici's `Agent`).
  external: ["undici", "pg", "pg-native"],
  banner: { js: `${BUNDLED}\n${BANNER}` },
  legalComments: "inline",
  // Less text to read and parse at each start (names are kept: stack traces stay readable).
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: true,
  plugins: [compiledModules("import.meta.url")],
  logLevel: "warning",
});
const cached = await Promise.all(
  Object.entries(CACHED_BUNDLES).map(([name, commands]) => cachedBundle(name, commands)),
);
writeFileSync("dist/bundle-meta.json", JSON.stringify(mergedMeta([result.metafile, ...cached])));
// tsc's source map describes the file the bundle replaced.
rmSync(join(CLI, "main.js.map"), { force: true });
chmodSync(join(CLI, "main.js"), 0o755);

/**
 * The runs of `commands` from one script, the bundle `name`, for V8's code cache on Node 20
 * (cli/lifecycle/code-cache.ts): cli/lifecycle/run.ts and everything the commands can reach (undici
 * included), as one CommonJS bundle wrapped in a function (its parameters: BUNDLE_PARAMETERS), its
 * id (a hash of its text) on the first line; then runs of its commands through it
 * (scripts/make-code-cache.mjs, in a process of its own) make the cache. The other commands'
 * registrations are left out (cli/program.ts imports only the one named by the command word, which
 * is the one the bin chose the bundle by): each stays an `import()` of its unbundled module.
 * Returns esbuild's metafile, for dist/bundle-meta.json.
 */
async function cachedBundle(name, commands) {
  const files = bundleFiles(name);
  const out = await build({
    entryPoints: [join(CLI, "lifecycle/run.js")],
    outfile: relative(".", files.source),
    write: false,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20.19",
    external: ["pg", "pg-native"],
    legalComments: "inline",
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
    plugins: [compiledModules("__campaignctlBase"), otherRegistrationsLeftOut(commands), externalsRequired()],
    logLevel: "warning",
  });
  // ASCII only, so the bin reads it as Latin-1, a one-byte string (about 5 ms less than UTF-8 with
  // one character beyond Latin-1, which makes the whole source two-byte). esbuild escapes strings,
  // templates and names, but not regular expression literals: there `\uXXXX` is the same code unit.
  const text = out.outputFiles[0].text.replace(
    /[^ -~\t\n\r]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  const dynamic = [...text.matchAll(/\bimport\(([^)]*)\)/g)]
    .map((m) => m[1])
    .filter((m) => !/^"\.\.\/register\/[a-z-]+\.js"$/.test(m));
  if (dynamic.length > 0)
    throw new Error(
      `the code-cached bundle ${name} has an import() of ${dynamic.join(", ")}: see externalsRequired`,
    );
  const id = createHash("sha256").update(text).digest("hex").slice(0, 32);
  mkdirSync(dirname(files.source), { recursive: true });
  writeFileSync(files.source, `// ${id}\n(function (${BUNDLE_PARAMETERS.join(", ")}) {\n${text}})\n`);
  execFileSync(process.execPath, ["--predictable", "scripts/make-code-cache.mjs", name], {
    stdio: "inherit",
  });
  return out.metafile;
}

/** cli/program.ts's `import()` of every registration but those of `commands`, left to Node's loader. */
function otherRegistrationsLeftOut(commands) {
  return {
    name: "other-registrations-left-out",
    setup(build) {
      build.onResolve({ filter: /^\.\/register\/[a-z-]+\.js$/ }, (args) => {
        if (args.kind !== "dynamic-import" || basename(args.importer) !== "program.js") return undefined;
        if (commands.some((command) => args.path === `./register/${command}.js`)) return undefined;
        return { path: `.${args.path}`, external: true };
      });
    },
  };
}

/**
 * The `import()` of a package left to Node (pg and its optional native binding: CommonJS) as its
 * `require`. On Node 20, a function V8 compiled from the code cache has lost the script's
 * `importModuleDynamically`: an `import()` there throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING
 * (without the cache it works), so a code-cached bundle must reach none (undici, the other package
 * the ES modules leave to Node, is bundled: its 80-odd files were a third of a short `replies run`'s
 * CPU). What `import()` of a CommonJS package gives (its `module.exports` as `default`, and its
 * named exports) esbuild's `__toESM` gives too.
 */
function externalsRequired() {
  return {
    name: "externals-required",
    setup(build) {
      build.onResolve({ filter: /^(pg|pg-native)$/ }, (args) =>
        args.kind === "dynamic-import"
          ? { path: args.path, namespace: "required" }
          : { path: args.path, external: true },
      );
      build.onLoad({ filter: /.*/, namespace: "required" }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path)});`,
        loader: "js",
      }));
    },
  };
}

/**
 * The example fixture's load, made once here instead of at every `--sandbox` start
 * (src/sandbox/fixture/built-example.ts reads it): examples/sandbox.yaml parsed and checked by this
 * build's compiled code, with its text, as JSON. A load that JSON would not give back as it is
 * (a value JSON has not) stops the build.
 */
async function writeBuiltExample() {
  const { parseFixtureText } = await import("../dist/src/sandbox/fixture/load.js");
  const { BUILT_EXAMPLE_URL } = await import("../dist/src/sandbox/fixture/built-example.js");
  const text = readFileSync("examples/sandbox.yaml", "utf8");
  const load = parseFixtureText(text, "examples/sandbox.yaml");
  const json = JSON.stringify({ text, load });
  if (!isDeepStrictEqual(JSON.parse(json).load, load))
    throw new Error("examples/sandbox.yaml's load does not survive JSON: see writeBuiltExample");
  writeFileSync(BUILT_EXAMPLE_URL, json);
}

/** esbuild's metafiles of several builds as one. */
function mergedMeta(metas) {
  return {
    inputs: Object.assign({}, ...metas.map((m) => m.inputs)),
    outputs: Object.assign({}, ...metas.map((m) => m.outputs)),
  };
}
