/**
 * The interactive demo page in a real browser: headless Chromium (Debian's `chromium`) opens
 * what `demo` serves and uses it as a visitor would: plays the next event, types /runai
 * commands, clicks the alert's buttons, opens the Home tab and switches between people, and
 * sees what Slack would show each of them. With UPDATE_SCREENSHOT=1 it replaces the README's
 * pictures in docs/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { GUIDE } from '../../src/lifecycle/states.js';
import { CLI, ROOT } from './cli.js';
import { describeNeeding } from '../helpers/needs.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
// Tests must not rewrite tracked files; the README's pictures are refreshed on request only.
const SHOTS = process.env.UPDATE_SCREENSHOT === '1' ? join(ROOT, 'docs') : mkdtempSync(join(tmpdir(), 'demo-page-'));
const haveChromium = existsSync(CHROMIUM);
/** Long enough for a browser step, a Socket Mode round trip and the page's next push. */
const SHOWN_MS = 15_000;

// Not required in CI: .ci/run installs it, but a mirror without it should not sink the run.
const describeWithChromium = describeNeeding(
  { what: `Chromium (${CHROMIUM})`, skipped: 'the demo page browser tests', fix: 'apt-get install chromium (.ci/run installs it).', requiredInCi: false },
  haveChromium ? undefined : 'missing',
);

/** Starts `demo` on a free port and resolves with the URL it prints. Steps play only when asked. */
function startDemoProcess(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'demo', '--port', '0', '--step-delay-ms', '3600000'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /Demo running at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout);
      if (match) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`demo exited with ${code} before printing its URL:\n${stderr}`)));
  });
}

describeWithChromium('the interactive demo page', () => {
  let demo: { child: ChildProcess; url: string };
  let browser: Browser;
  let page: Page;

  const dm = () => page.locator('#pane [data-conversation^="D"]');
  const replies = () => dm().locator('article.message.ephemeral');

  async function actAs(userId: string): Promise<void> {
    await page.selectOption('#viewer', userId);
    await page.waitForSelector(`body[data-viewer="${userId}"]`);
    await page.click('.sidebar-item[data-pane^="D"]');
    await page.waitForSelector(`#pane[data-pane="D${userId.slice(1)}"]`);
  }

  // Functions given to waitForFunction run in the page (a string would be eval'd, which the
  // page's Content-Security-Policy forbids); the project compiles without DOM types, hence `any`.

  /** Types a command in the open conversation and resolves with the reply the bot sent back. */
  async function type(text: string): Promise<Locator> {
    const before = await replies().count();
    await page.fill('#message', text);
    await page.press('#message', 'Enter');
    // The box empties once the page has delivered the command.
    await page.waitForFunction(() => (globalThis as any).document.getElementById('message').value === '', undefined, { timeout: SHOWN_MS });
    const reply = replies().nth(before);
    await reply.waitFor({ timeout: SHOWN_MS });
    return reply;
  }

  /** Plays the scenario's next event with the page's button, and waits until it has played. */
  async function playNext(label: string): Promise<void> {
    await expect(page.locator('#next').textContent()).resolves.toBe(`▶ ${label}`);
    await page.click('#next');
    // The button has moved on to the following event, and the status no longer says a step is playing.
    await page.waitForFunction((l) => (globalThis as any).document.getElementById('next').textContent !== `▶ ${l}` && !/^Step \d/.test((globalThis as any).document.getElementById('status').textContent), label, { timeout: SHOWN_MS });
  }

  beforeAll(async () => {
    demo = await startDemoProcess();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
    await page.goto(demo.url);
    await page.waitForSelector('body[data-viewer="U0ALICE"]');
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    if (demo?.child.exitCode === null) {
      const exited = new Promise((resolve) => demo.child.once('exit', resolve));
      demo.child.kill('SIGTERM');
      await exited;
    }
  });

  it('prints its URL on 127.0.0.1 and opens as alice, in her DM with the bot', async () => {
    expect(demo.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    await expect(page.locator('#pane').getAttribute('data-pane')).resolves.toBe('D0ALICE');
    await expect(page.locator('#viewer option').allTextContents()).resolves.toEqual([
      'Alice Martin (owns resnet-finetune)', 'Bob Chen (owns jupyter-bob and fish-detector)', 'Carol Okafor (owns llama-ddp and sdxl-eval)',
      'Dave Kim (member of project llm)', 'Erin Novak (cluster admin)', 'Frank Ortiz (in no project)',
    ]);
  });

  it('plays "Fail a job" at once: alice gets the OOM alert with working buttons', async () => {
    await playNext('Fail a job');
    const alert = dm().locator('article.message', { hasText: 'resnet-finetune failed' });
    await alert.waitFor({ timeout: SHOWN_MS });
    await expect(alert.locator('.header').first().textContent()).resolves.toBe('resnet-finetune failed');
    await expect(alert.locator('pre.code-block').allTextContents()).resolves.toEqual(expect.arrayContaining([expect.stringContaining('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.06 GiB')]));
    await expect(alert.locator('[data-action-id]').allTextContents()).resolves.toEqual(['Show more of the log', 'Save the whole log', 'Mute this workload', 'Mute vision for a day', 'Open in Run:ai ↗']);
    expect(await alert.locator('button[disabled]').count()).toBe(0);
    const link = alert.locator('a[data-action-id="runai_open_ui"]');
    await expect(link.getAttribute('href')).resolves.toMatch(/^https:\/\/runai\.example\.org\//);
    await expect(link.getAttribute('target')).resolves.toBe('_blank');
    // The README's picture of the alert: a page tall enough that the whole message fits in the pane.
    const tall = await browser.newPage({ viewport: { width: 1040, height: 1500 }, deviceScaleFactor: 1 });
    await tall.goto(demo.url);
    const whole = tall.locator('#pane article.message', { hasText: 'resnet-finetune failed' });
    await whole.waitFor({ timeout: SHOWN_MS });
    await whole.screenshot({ path: join(SHOTS, 'demo-dm.png') });
    await tall.close();
  });

  it('answers /runai typed in the DM with an ephemeral reply, as Slack shows it', async () => {
    const reply = await type('/runai status resnet-finetune');
    await expect(reply.textContent()).resolves.toContain('Only visible to you');
    await expect(reply.textContent()).resolves.toContain('resnet-finetune');
    await expect(reply.textContent()).resolves.toContain(GUIDE.Failed.nextAction);
    await page.screenshot({ path: join(SHOTS, 'demo-page.png') });
    const help = await type('/runai help');
    await expect(help.textContent()).resolves.toContain('/runai why NAME');
  });

  it('says what Slack would when something other than /runai is typed, and sends nothing', async () => {
    const before = await replies().count();
    await page.fill('#message', 'hello bot');
    await page.press('#message', 'Enter');
    await page.waitForFunction(() => /only \/runai commands reach the bot/.test((globalThis as any).document.getElementById('composer-error').textContent), undefined, { timeout: SHOWN_MS });
    expect(await replies().count()).toBe(before);
    await page.fill('#message', '');
  });

  it('answers the alert buttons: more of the log, then a mute confirmation', async () => {
    const alert = dm().locator('article.message', { hasText: 'resnet-finetune failed' });
    let before = await replies().count();
    await alert.locator('[data-action-id="runai_show_log"]').click();
    const log = replies().nth(before);
    await log.waitFor({ timeout: SHOWN_MS });
    await expect(log.textContent()).resolves.toContain('Epoch 1/10');
    before = await replies().count();
    await alert.locator('[data-action-id="runai_mute_workload"]').click();
    const muted = replies().nth(before);
    await muted.waitFor({ timeout: SHOWN_MS });
    await expect(muted.textContent()).resolves.toContain('Muted resnet-finetune in project vision');
    // The answer to a click is scrolled into view, as the visitor looks for it.
    await expect(muted.isVisible()).resolves.toBe(true);
    const inView = await muted.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const pane = el.closest('#pane')!.getBoundingClientRect();
      return box.top >= pane.top && box.bottom <= pane.bottom + 1;
    });
    expect(inView).toBe(true);
  });

  it('opens the Home tab: the bot publishes alice’s workloads, alerts, maintenance and settings', async () => {
    await page.click('.sidebar-item[data-pane="home"]');
    const home = page.locator('#pane [data-home="U0ALICE"]');
    await home.waitFor({ timeout: SHOWN_MS });
    const text = await home.innerText();
    expect(text).toContain('Your Run:ai workloads');
    expect(text).toContain('resnet-finetune');
    expect(text).toContain('GPU cluster maintenance: NVIDIA driver and firmware upgrade');
    expect(text).toMatch(/Mutes\s+.*resnet-finetune/s);
    await page.screenshot({ path: join(SHOTS, 'demo-home.png') });
  });

  it('as frank, a stranger: alice’s workload gets the same answer as one that does not exist', async () => {
    await actAs('U0FRANK');
    const others = await reply('/runai status resnet-finetune');
    const missing = await reply('/runai status no-such-workload');
    expect(others).toContain("I can't show you a workload named resnet-finetune");
    expect(others.replace('resnet-finetune', 'NAME')).toBe(missing.replace('no-such-workload', 'NAME'));
    // Nothing of alice's conversation is in front of him.
    expect(await page.locator('#pane').innerText()).not.toContain('OutOfMemoryError');
    await page.screenshot({ path: join(SHOTS, 'demo-stranger.png') });
  });

  it('as dave, a member of llm: sees llama-ddp, not alice’s job; as erin, the admin: sees alice’s job', async () => {
    await actAs('U0DAVE');
    expect(await reply('/runai status llama-ddp')).not.toContain("can't show you");
    expect(await reply('/runai status resnet-finetune')).toContain("I can't show you a workload named resnet-finetune");
    await actAs('U0ERIN');
    expect(await reply('/runai status resnet-finetune')).not.toContain("can't show you");
  });

  it("plays alice's resubmission: the replies under her alert, its first line edited, and a log-saving tip", async () => {
    await actAs('U0ALICE');
    // She muted it above: follow-ups respect mutes, so she unmutes it first.
    await expect((await type('/runai unmute resnet-finetune')).textContent()).resolves.toContain('resnet-finetune');
    await playNext('Resubmit it with one change');
    const thread = dm().locator('.thread');
    await page.waitForFunction(() => (globalThis as any).document.querySelector('#pane .thread')?.innerText.includes('1 change'), undefined, { timeout: SHOWN_MS });
    await expect(thread.locator('.thread-count').textContent()).resolves.toBe('2 replies');
    const replied = await thread.innerText();
    expect(replied).toContain('is Deleted');
    expect(replied).toContain('↩️ Resubmitted');
    expect(replied).toMatch(/1 change:\s*image tag\s*2\.4\.1\s*→\s*2\.4\.2/);
    // The root, just above its thread, now says where things stand, and is marked edited.
    const root = dm().locator('article.message', { has: page.locator('.header', { hasText: 'Failed → resubmitted, running' }) });
    await root.waitFor({ timeout: SHOWN_MS });
    await expect(root.locator('.note').allTextContents()).resolves.toContain('(edited)');
    await expect(root.evaluate((el) => el.nextElementSibling?.className)).resolves.toBe('thread');
    const tip = dm().locator('article.message', { hasText: 'A tip for the log of resnet-finetune' });
    await tip.waitFor({ timeout: SHOWN_MS });
    await expect(tip.innerText()).resolves.toContain('/runai settings tips off');
    // The README's picture of a thread: the edited root with its replies.
    // Tall enough for the root and its replies; the pane is scrolled to the thread's last reply.
    const tall = await browser.newPage({ viewport: { width: 1040, height: 2100 }, deviceScaleFactor: 1 });
    await tall.goto(demo.url);
    const whole = tall.locator('#pane .thread');
    await whole.waitFor({ timeout: SHOWN_MS });
    await tall.evaluate(() => (globalThis as any).document.querySelector('#pane .thread').scrollIntoView({ block: 'end' }));
    await tall.screenshot({ path: join(SHOTS, 'demo-thread.png') });
    await tall.close();
  });

  it('plays the rest of the story from the page: the stopped notebook, the masked failure, the maintenance reminder with a checkpoint, the quota wait, the distributed failure', async () => {
    await playNext('Stop a notebook');
    await playNext('Complete a job with a hidden error');
    await playNext('Send the maintenance reminder');
    await playNext('Leave a workspace waiting over quota');
    await playNext('Fail a distributed job');
    await page.waitForSelector('body[data-done="true"]', { timeout: 45_000 });
    await expect(page.locator('#next').isHidden()).resolves.toBe(true);
    await expect(page.locator('#status').textContent()).resolves.toMatch(/^Scenario finished: \d+ messages posted/);

    await actAs('U0BOB');
    expect(await page.locator('#pane').innerText()).toContain('jupyter-bob was stopped');
    expect(await page.locator('#pane').innerText()).toContain(GUIDE.Stopped.nextAction);
    expect(await page.locator('#pane').innerText()).toContain('fish-detector completed, but its log ends in an error');

    await actAs('U0CAROL');
    await page.waitForFunction(() => (globalThis as any).document.getElementById('pane').innerText.includes('llama-ddp failed'), undefined, { timeout: SHOWN_MS });
    const carol = await page.locator('#pane').innerText();
    expect(carol).toContain('sdxl-eval has been Pending for 45 minutes');
    expect(carol).toContain("No such file or directory: '/data/shards/shard-17.parquet'");
    // The owners' notice: llama-ddp was still running a day before the window.
    expect(carol).toMatch(/Maintenance in \d+ (hours|minutes)[^\n]*: your running workloads/);
    expect(carol).toContain('1 workload of yours is running and will be affected by GPU cluster maintenance');
    expect(carol).toMatch(/Last checkpoint saved \d+ min ago \(global step 12000/);

    await page.click('.sidebar-item:has-text("#maintenance")');
    await page.waitForSelector('#pane[data-pane="C0MAINT"]');
    const channel = await page.locator('#pane').innerText();
    expect(channel).toContain('NVIDIA driver and firmware upgrade');
    expect(await page.locator('#pane article.message').count()).toBeGreaterThanOrEqual(2);
  });

  it('renders emoji and Slack escapes as a reader sees them, never as markup', async () => {
    await actAs('U0ALICE');
    const text = await page.locator('#pane').innerText();
    expect(text).toContain('❌');
    expect(text).not.toMatch(/&lt;|&gt;|&amp;|:x:/);
    expect(await page.locator('#pane script, #pane iframe').count()).toBe(0);
  });

  /** The text of the bot's reply to a command, from its body on (its posting time left out). */
  async function reply(command: string): Promise<string> {
    const text = (await (await type(command)).innerText()).replace(/\s+/g, ' ');
    return text.slice(text.indexOf('Only visible to you') + 'Only visible to you'.length).trim();
  }
});

