import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); `.ci/run` installs it. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Launches the system Chromium headless. A missing browser is an error, never a skip: CI installs
 * it, and a browser test that quietly does not run proves nothing.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: run \`apt-get update && apt-get install -y chromium\` (.ci/run does this).`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless'] });
}

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { target: readonly string[] }[];
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core inside the page (WCAG 2 A/AA rules). It is evaluated through the DevTools protocol,
 * which the page's CSP does not govern, so the page keeps its real policy while it is checked.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate<AxeViolation[]>(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))",
  );
}

/** The violations a payer could be blocked by. */
export function serious(violations: readonly AxeViolation[]): AxeViolation[] {
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}
