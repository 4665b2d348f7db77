// What the UI tests share: the page (filled in by scripts/lib/ui.mjs), locators for the quick input,
// and steps a person takes (run a command from the Command Palette, type, toggle, pick). Every wait is
// for a condition on the page or in the log, never a fixed delay.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Set by the runner: { page, server, workspace, artifacts, repo }. */
export const ui = {};

export const widget = () => ui.page.locator('.quick-input-widget');
export const input = () => ui.page.locator('.quick-input-widget .quick-input-box input');
export const title = () => ui.page.locator('.quick-input-widget .quick-input-title');
export const rows = () => ui.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
export const row = (text) => rows().filter({ hasText: text });
/** The highlighted parts of the rows' labels (not their descriptions). */
export const labelHighlights = () => ui.page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name .highlight');
export const toggle = (label, extra = '') => ui.page.locator(`.quick-input-widget .monaco-custom-toggle[aria-label^="${label}"]${extra}`);
export const titleButton = (label) => ui.page.locator(`.quick-input-widget .quick-input-titlebar .action-label[aria-label^="${label}"]`);

/** Moves the mouse out of the way, so no hover it raised covers what is clicked next. */
export async function mouseAway() {
  await ui.page.mouse.move(640, 760);
  await ui.page.locator('.context-view .hover-contents').waitFor({ state: 'hidden' });
}

/** Clicks a button of the quick input's title bar (Back, Copy Results as JSON). */
export async function clickTitleButton(label) {
  await mouseAway();
  await titleButton(label).click();
}

export async function screenshot(name) {
  await ui.page.screenshot({ path: join(ui.artifacts, `${name}.png`) });
}

/** A picture of the quick input alone, as the README shows it. */
export async function widgetScreenshot(name) {
  await mouseAway();
  await widget().screenshot({ path: join(ui.artifacts, `${name}.png`) });
}

/** The quick input's title once it matches. */
export async function waitForTitle(pattern, timeout) {
  await title().filter({ hasText: pattern }).waitFor({ timeout });
  return title().innerText();
}

/**
 * Runs a command from the Command Palette by typing its name, as a person would. Until the development
 * extension is registered its commands are not listed yet: the palette is then closed and opened again.
 */
export async function runCommand(name, { within = 60_000, page = ui.page } = {}) {
  const deadline = Date.now() + within;
  const box = page.locator('.quick-input-widget .quick-input-box input');
  for (;;) {
    await page.keyboard.press('F1');
    await box.waitFor();
    await box.fill(`>${name}`);
    try {
      await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ timeout: 2_000 });
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await box.press('Escape');
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    }
  }
  await box.press('Enter');
}

/** Types into the quick input (replacing its value); the keys go to the input, never to an editor. */
export async function type(text) {
  await input().fill(text);
}

export async function press(key) {
  await input().press(key);
}

/** Sets a toggle (Match Case, Match Whole Word, Use Regular Expression) and gives the focus back to the input. */
export async function setToggle(label, checked) {
  const button = toggle(label);
  if ((await button.getAttribute('aria-checked')) !== String(checked)) await button.click();
  await toggle(label, `[aria-checked="${checked}"]`).waitFor();
  await mouseAway();
  await input().focus();
}

/** Sets the files to include through their own quick pick ('' for all files). */
export async function setInclude(value) {
  const current = await title().innerText();
  if (value ? current.endsWith(`files to include ${value}`) : current === 'Search Text in Workspace') return;
  await toggle('Files to Include').click();
  await waitForTitle(/^Files to Include$/); // not the main title, which may end with "files to include …"
  await type(value);
  await row(value || 'All files')
    .first()
    .waitFor();
  await press('Enter');
  await waitForTitle(value ? `Search Text in Workspace: files to include ${value}` : /^Search Text in Workspace$/);
}

/** Closes whatever quick input, notification center or editor a test left open. */
export async function resetWorkbench() {
  const page = ui.page;
  if (await page.locator('.monaco-dialog-box').isVisible()) await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Cancel' }).click();
  while (await widget().isVisible()) {
    await page.keyboard.press('Escape');
    await widget()
      .waitFor({ state: 'hidden' })
      .catch(() => {});
  }
  for (const command of ['View: Close All Editors', 'Notifications: Clear All Notifications']) {
    await runCommand(command);
    await widget().waitFor({ state: 'hidden' });
  }
  if (await page.locator('.notifications-center.visible').isVisible()) await page.keyboard.press('Escape');
  await page.locator('.monaco-workbench .editor-group-container .tab').first().waitFor({ state: 'detached' });
}

/** Opens the notification center (toasts are not shown in a workbench driven by the smoke-test driver). */
export async function openNotifications() {
  await ui.page.locator('[id="status.notifications"]').click();
  await ui.page.locator('.notifications-center.visible').waitFor();
}

export function notification(text) {
  return ui.page.locator('.notifications-center .notification-list-item').filter({ hasText: text }).first();
}

/** The "Grep Tools" log output channel, as the extension host wrote it. */
export function logText() {
  const files = [];
  const walk = (dir) => {
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name === 'Grep Tools.log') files.push(path);
    }
  };
  walk(join(ui.server.userDataDir, 'logs'));
  return files.map((file) => readFileSync(file, 'utf8')).join('\n');
}

/** Polls the log until it matches (the channel is written asynchronously); returns the matching line. */
export async function waitForLog(pattern, timeout = 10_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const line = logText()
      .split('\n')
      .find((l) => pattern.test(l));
    if (line) return line;
    if (Date.now() > deadline) assert.fail(`The Grep Tools log has no line matching ${pattern}:\n${logText()}`);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the next look at the file
  }
}

/** The active editor's file name and the status bar's "Ln 5, Col 8 (4 selected)". */
export async function activeEditor() {
  const page = ui.page;
  const tab = page.locator('.monaco-workbench .editor-group-container.active .tab.active');
  await tab.waitFor();
  const selection = page.locator('[id="status.editor.selection"]');
  await selection.waitFor();
  return { file: await tab.getAttribute('data-resource-name'), selection: await selection.innerText() };
}

/** Reads what the extension copied, through the browser's clipboard. */
export async function clipboardText() {
  return ui.page.evaluate(() => navigator.clipboard.readText());
}
