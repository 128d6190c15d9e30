import { existsSync } from "node:fs";

/** Debian's chromium; the suite never downloads browsers (no `playwright install`). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM_PATH);
