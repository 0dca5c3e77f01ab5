/**
 * How tests and benchmarks launch a browser: Debian's chromium (never a downloaded one), headless,
 * with nothing in the background that could call out or steal a share of the 2 cores.
 */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
