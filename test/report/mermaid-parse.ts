import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { tempTree } from '../helpers.js';
import type { launchChromium } from './html/chromium.js';

export interface Parsed {
  readonly ok: boolean;
  readonly error?: string;
  readonly type?: string;
  /** Gantt tasks and sections as mermaid's own parser saw them. */
  readonly tasks?: Array<{ task: string; section: string; crit: boolean; done: boolean; active: boolean }>;
  readonly title?: string;
}

/**
 * A page that loads mermaid's bundled file from node_modules over file:// (no
 * network): mermaid's parser needs a DOM, so it runs in Chromium, not in Node.
 */
export async function mermaidPage(chromium: Awaited<ReturnType<typeof launchChromium>>): Promise<Page> {
  const script = pathToFileURL(resolve('node_modules/mermaid/dist/mermaid.min.js')).href;
  const html = join(tempTree({}), 'mermaid.html');
  writeFileSync(html, `<!doctype html><meta charset="utf-8"><script src="${script}"></script><body></body>`);
  const page = await chromium.context.newPage();
  await page.goto(pathToFileURL(html).href);
  await page.waitForFunction(() => 'mermaid' in window);
  await page.evaluate(() => (window as unknown as { mermaid: { initialize(o: object): void } }).mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' }));
  return page;
}

/** Parses one diagram with mermaid.parse, then reads the gantt's tasks from mermaid's own model. */
export async function parseMermaid(page: Page, text: string): Promise<Parsed> {
  return page.evaluate(async (source) => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const m = (window as any).mermaid;
    try {
      const parsed = await m.parse(source);
      const diagram = await m.mermaidAPI.getDiagramFromText(source);
      const db = diagram.db;
      const tasks = typeof db.getTasks === 'function' ? db.getTasks().map((t: { task: string; section: string; crit?: boolean; done?: boolean; active?: boolean }) => ({ task: t.task.trim(), section: t.section, crit: t.crit === true, done: t.done === true, active: t.active === true })) : undefined;
      return { ok: true, type: parsed.diagramType, tasks, title: typeof db.getDiagramTitle === 'function' ? db.getDiagramTitle() : undefined };
    } catch (error) {
      return { ok: false, error: String(error instanceof Error ? error.message : error) };
    }
  }, text);
}
