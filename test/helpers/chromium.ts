// The browser for the browser tests: Debian's chromium (never a downloaded one), installed with
// apt-get when missing — so `npm test` sets up its own browser on a fresh machine.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  console.log('› installing chromium (apt-get) for the browser tests');
  const asRoot = process.getuid?.() === 0;
  const apt = (...args: string[]) =>
    spawnSync(asRoot ? 'apt-get' : 'sudo', asRoot ? args : ['apt-get', ...args], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (apt('install', '-y', 'chromium').status !== 0) {
    apt('update');
    apt('install', '-y', 'chromium');
  }
  if (!existsSync(CHROMIUM)) throw new Error(`chromium is missing at ${CHROMIUM} and apt-get could not install it`);
}
