/**
 * The fonts the gallery's browser test renders with, and nothing else: copies of the six faces of
 * Debian's `fonts-dejavu-core` in a temp directory, and a fontconfig file naming only that directory
 * (with its own cache), the generic families and the rendering settings. Chromium launched with
 * `FONTCONFIG_FILE` pointing at it sees no system font and no system font configuration, so fonts
 * installed beside it (ImageMagick's Noto and URW, `fonts-dejavu-extra`'s obliques, a user's
 * ~/.fonts) cannot change a screenshot.
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Where `fonts-dejavu-core` installs its faces. */
export const DEJAVU_DIR = "/usr/share/fonts/truetype/dejavu";

/** The faces `fonts-dejavu-core` ships (the oblique and condensed ones are in `fonts-dejavu-extra`). */
export const DEJAVU_CORE_FILES = [
  "DejaVuSans.ttf",
  "DejaVuSans-Bold.ttf",
  "DejaVuSansMono.ttf",
  "DejaVuSansMono-Bold.ttf",
  "DejaVuSerif.ttf",
  "DejaVuSerif-Bold.ttf",
] as const;

/** The core faces missing on this machine (empty when `fonts-dejavu-core` is installed). */
export function missingFonts(): string[] {
  return DEJAVU_CORE_FILES.map((f) => join(DEJAVU_DIR, f)).filter((p) => !existsSync(p));
}

/**
 * Writes the font set into `dir` (fonts/, cache/, fonts.conf) and returns the environment that
 * makes fontconfig use only it. Invariant: the returned `FONTCONFIG_FILE` includes no other
 * configuration file, so every font and setting Chromium sees is listed here.
 */
export function controlledFonts(dir: string): { FONTCONFIG_FILE: string } {
  const fonts = join(dir, "fonts");
  const cache = join(dir, "cache");
  mkdirSync(fonts, { recursive: true });
  mkdirSync(cache, { recursive: true });
  for (const file of DEJAVU_CORE_FILES) copyFileSync(join(DEJAVU_DIR, file), join(fonts, file));
  const generic = (name: string, family: string): string =>
    `  <alias binding="same"><family>${name}</family><prefer><family>${family}</family></prefer></alias>`;
  const config = join(dir, "fonts.conf");
  writeFileSync(
    config,
    `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>${fonts}</dir>
  <cachedir>${cache}</cachedir>
${generic("sans-serif", "DejaVu Sans")}
${generic("serif", "DejaVu Serif")}
${generic("monospace", "DejaVu Sans Mono")}
  <match target="font">
    <edit name="antialias" mode="assign"><bool>true</bool></edit>
    <edit name="hinting" mode="assign"><bool>true</bool></edit>
    <edit name="hintstyle" mode="assign"><const>hintslight</const></edit>
    <edit name="rgba" mode="assign"><const>none</const></edit>
    <edit name="lcdfilter" mode="assign"><const>lcddefault</const></edit>
    <edit name="embeddedbitmap" mode="assign"><bool>false</bool></edit>
  </match>
</fontconfig>
`,
  );
  return { FONTCONFIG_FILE: config };
}
