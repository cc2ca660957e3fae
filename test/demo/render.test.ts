/**
 * Block Kit and mrkdwn as the demo page renders them. The text quotes workload logs, so the
 * rendering must show Slack's formatting and never let log text become markup.
 */
import { blockHtml, messageBodyHtml } from '../../src/demo/blocks-html.js';
import { conversationHtml, conversationsOf, homeHtml, mrkdwnContextOf, threadsOf } from '../../src/demo/conversations-html.js';
import { formatSlackDate, mrkdwnToHtml, type MrkdwnContext } from '../../src/demo/mrkdwn-html.js';
import { SlackWorkspace } from '../../src/sim/slack-workspace.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli.js';

const ctx: MrkdwnContext = {
  userName: (id) => (id === 'U0ALICE' ? 'alice' : undefined),
  channelName: (id) => (id === 'C0MAINT' ? 'maintenance' : undefined),
};
const html = (text: string) => mrkdwnToHtml(text, ctx);

describe('mrkdwn as HTML', () => {
  it('shows *bold*, _italic_, ~strike~ and `code` the way Slack does, only at word edges', () => {
    expect(html('Your job *resnet* is _Failed_, ~not~ `ok`')).toBe('Your job <b>resnet</b> is <i>Failed</i>, <s>not</s> <code>ok</code>');
    expect(html('2*3*4 and snake_case_name')).toBe('2*3*4 and snake_case_name');
  });

  it('puts ``` blocks in <pre> with nothing formatted inside, and decodes Slack escapes once', () => {
    expect(html('*Error*:\n```a *b* &lt;script&gt; &amp;amp;\nc```')).toBe(
      '<b>Error</b>:<pre class="code-block">a *b* &lt;script&gt; &amp;amp;\nc</pre>',
    );
  });

  it('links http(s) URLs with their label and leaves other schemes as plain text', () => {
    expect(html('<https://runai.example.org/w?a=1&amp;b=2|Open *now*>')).toBe(
      '<a href="https://runai.example.org/w?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">Open <b>now</b></a>',
    );
    expect(html('<javascript:alert(1)|click>')).toBe('click');
  });

  it('names mentions, channels and dates as a reader sees them', () => {
    expect(html('<@U0ALICE> see <#C0MAINT> at <!date^1764403200^{date_short_pretty} {time}|Nov 29 08:00 UTC>')).toBe(
      '<span class="mention">@alice</span> see <span class="mention">#maintenance</span> at <span class="date">Nov 29, 2025 08:00 UTC</span>',
    );
    expect(html('<!date^notanumber^{date}|the fallback &lt;b&gt;>')).toBe('<span class="date">the fallback &lt;b&gt;</span>');
  });

  it('formats <!date> tokens in UTC, with today/tomorrow and "ago" when the time now is known', () => {
    const at = Date.UTC(2026, 10, 30, 16, 20, 7) / 1000;
    expect(formatSlackDate(at, '{date_num} {date} / {date_short} / {date_long} {time_secs}')).toBe(
      '2026-11-30 November 30th, 2026 / Nov 30, 2026 / Monday, November 30th, 2026 16:20:07 UTC',
    );
    expect(formatSlackDate(at, '{date_short_pretty} at {time}', new Date('2026-11-29T23:00:00Z'))).toBe('Tomorrow at 16:20 UTC');
    expect(formatSlackDate(at, '{date_pretty}', new Date('2026-11-30T01:00:00Z'))).toBe('Today');
    expect(formatSlackDate(at, '{ago}', new Date('2026-11-30T19:20:07Z'))).toBe('3 hours ago');
    expect(formatSlackDate(at, '{unknown} {date_pretty}')).toBe('{unknown} November 30th, 2026');
  });

  it('lets emphasis span code and mentions, as Slack does, without formatting inside them', () => {
    expect(html('*Log of `a_b*c`* (pod x)')).toBe('<b>Log of <code>a_b*c</code></b> (pod x)');
    expect(html('_see <@U0ALICE>_')).toBe('<i>see <span class="mention">@alice</span></i>');
    // The placeholders used while rendering cannot be forged from the text.
    expect(html('\uE0000\uE001 `x`')).toBe('\uFFFD0\uFFFD <code>x</code>');
  });

  it('never turns log text into markup, whatever it contains', () => {
    const hostile = '<img src=x onerror=alert(1)> "quoted" \'single\' </pre><script>alert(2)</script>';
    for (const text of [hostile, `\`\`\`${hostile}\`\`\``, `\`${hostile}\``, `*${hostile}*`]) {
      const out = html(text);
      expect(out).not.toMatch(/<(img|script|\/pre>\s*<script)/i);
      expect(out).not.toContain('"quoted"');
    }
  });

  it('shows the emoji the bot uses and leaves unknown ones as :name:', () => {
    expect(html(':x: :double_vertical_bar: :made_up:')).toBe('❌ ⏸️ :made_up:');
  });

  it('knows every emoji the bot writes in its messages and replies (else the page shows :name:)', () => {
    const sources = ['src/messages', 'src/slack', 'src/slack/commands']
      .flatMap((dir) => readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.ts')).map((f) => readFileSync(join(ROOT, dir, f), 'utf8')));
    const used = new Set(sources.flatMap((text) => [...text.matchAll(/[`'" ]:([a-z][a-z0-9_+-]*):[`'" ]/g)].map((m) => m[1])));
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((name) => html(`:${name}:`) === `:${name}:`)).toEqual([]);
  });
});

describe('Block Kit as HTML', () => {
  it('renders headers, fields, context and clickable buttons, and names blocks it does not know', () => {
    expect(blockHtml({ type: 'header', text: { type: 'plain_text', text: 'a <b> :x:', emoji: true } }, ctx)).toBe('<div class="block header">a &lt;b&gt; ❌</div>');
    expect(blockHtml({ type: 'section', fields: [{ type: 'mrkdwn', text: '*Node*\ngpu-1' }] }, ctx)).toContain('<div class="field"><b>Node</b><br>gpu-1</div>');
    expect(blockHtml({ type: 'context', elements: [{ type: 'mrkdwn', text: 'small' }] }, ctx)).toContain('<span class="context-element">small</span>');
    expect(blockHtml({ type: 'actions', elements: [{ type: 'button', action_id: 'mute', value: '{"ns":"a\\"b"}', text: { type: 'plain_text', text: 'Mute' } }] }, ctx)).toBe(
      '<div class="block actions"><button type="button" class="button" data-action-id="mute" data-value="{&quot;ns&quot;:&quot;a\\&quot;b&quot;}">Mute</button></div>',
    );
    expect(blockHtml({ type: 'actions', elements: [{ type: 'button', action_id: 'open', text: { type: 'plain_text', text: 'Open' }, url: 'https://x.example/?a=1&b=2' }] }, ctx)).toBe(
      '<div class="block actions"><a class="button" href="https://x.example/?a=1&amp;b=2" target="_blank" rel="noopener noreferrer" data-action-id="open">Open <span class="external" aria-hidden="true">↗</span></a></div>',
    );
    // A url that is not http(s) makes no link.
    expect(blockHtml({ type: 'actions', elements: [{ type: 'button', action_id: 'x', text: { type: 'plain_text', text: 'X' }, url: 'javascript:alert(1)' }] }, ctx)).not.toContain('href');
    expect(blockHtml({ type: 'video' }, ctx)).toBe('<div class="block unsupported">[video block]</div>');
  });

  it('falls back to the text of a message without blocks', () => {
    expect(messageBodyHtml({ text: 'plain *text*' }, ctx)).toContain('plain <b>text</b>');
  });
});

describe('a conversation as the page shows it', () => {
  it('shows each message with the bot as author, its time in UTC, and a note on replies only the viewer sees', () => {
    const ws = new SlackWorkspace('T1', 'UBOT');
    ws.addUser({ id: 'U0ALICE', name: 'alice', real_name: 'Alice Martin' });
    const dm = ws.dmWith('U0ALICE');
    ws.post({ channel: dm.id, ts: '1764403201.000001', text: 'first', via: 'api' });
    ws.post({ channel: dm.id, ts: '1764403202.000001', text: 'second', visibleTo: 'U0ALICE', via: 'response_url' });
    const [view] = conversationsOf(ws, 'U0ALICE');
    expect(view.messages.map((m) => m.text)).toEqual(['first', 'second']);
    const page = conversationHtml(view, mrkdwnContextOf(ws));
    expect(page).toContain('Direct message · Run:ai Bot');
    expect(page).toContain('<time>08:00 UTC</time>');
    expect(page).toContain('<article class="message ephemeral" data-ts="1764403202.000001">');
    expect(page).toContain('Only visible to you');
    expect(page).not.toContain('No messages here yet');
  });
});

describe('threads as the page shows them', () => {
  it('lists replies under their root, oldest first, after the root (marked edited), with a count', () => {
    const ws = new SlackWorkspace('T1', 'UBOT');
    ws.addUser({ id: 'U0ALICE', name: 'alice', real_name: 'Alice Martin' });
    const dm = ws.dmWith('U0ALICE');
    const root = ws.post({ channel: dm.id, ts: '1764403201.000001', text: 'resnet failed', via: 'api' });
    ws.post({ channel: dm.id, ts: '1764403202.000001', text: 'a tip', via: 'api' });
    ws.post({ channel: dm.id, ts: '1764403203.000001', thread_ts: root.ts, text: 'deleted', via: 'api' });
    ws.post({ channel: dm.id, ts: '1764403204.000001', thread_ts: root.ts, text: 'resubmitted', via: 'api' });
    // As chat.update leaves it: the root's first line says where things stand.
    Object.assign(root, { text: 'Failed → resubmitted, running', edited: true });
    const [view] = conversationsOf(ws, 'U0ALICE');
    expect(threadsOf(view.messages).map((t) => [t.root.text, t.replies.map((r) => r.text)])).toEqual([
      ['Failed → resubmitted, running', ['deleted', 'resubmitted']],
      ['a tip', []],
    ]);
    const page = conversationHtml(view, mrkdwnContextOf(ws));
    const at = (text: string) => page.indexOf(text);
    expect(page).toContain('<div class="thread" data-thread-ts="1764403201.000001"><div class="thread-count">2 replies</div>');
    // The root's meta line (with its note) comes before its body, both before the thread.
    expect(at('(edited)')).toBeLessThan(at('Failed → resubmitted, running'));
    expect(at('Failed → resubmitted, running')).toBeLessThan(at('2 replies'));
    expect(at('2 replies')).toBeLessThan(at('>deleted<'));
    expect(at('>deleted<')).toBeLessThan(at('>resubmitted<'));
    expect(at('>resubmitted<')).toBeLessThan(at('>a tip<'));
    // A message without replies has no thread under it.
    expect(page.match(/class="thread"/g)).toHaveLength(1);
  });

  it('keeps a reply whose root is not shown at the top level, where it was posted', () => {
    const orphan = { channel: 'D0ALICE', ts: '2.0', thread_ts: '1.0', text: 'orphan', via: 'api' as const, edited: false };
    const self = { channel: 'D0ALICE', ts: '3.0', thread_ts: '3.0', text: 'own root', via: 'api' as const, edited: false };
    expect(threadsOf([orphan, self]).map((t) => [t.root.text, t.replies.length])).toEqual([['orphan', 0], ['own root', 0]]);
  });
});

describe('the workspace as one person sees it', () => {
  const ws = new SlackWorkspace('T1', 'UBOT');
  ws.addUser({ id: 'U0ALICE', name: 'alice', real_name: 'Alice Martin' });
  ws.addUser({ id: 'U0FRANK', name: 'frank', real_name: 'Frank Ortiz' });
  ws.addChannel('C0MAINT', 'maintenance', ['U0ALICE', 'U0FRANK']);
  ws.addChannel('C0PRIVATE', 'vision-team', ['U0ALICE']);
  ws.post({ channel: 'C0MAINT', ts: '1764403200.000001', text: 'window', via: 'api' });
  ws.post({ channel: 'C0MAINT', ts: '1764403201.000001', text: 'only for alice', visibleTo: 'U0ALICE', via: 'response_url' });
  ws.post({ channel: ws.dmWith('U0ALICE').id, ts: '1764403202.000001', text: 'your job failed', via: 'api' });

  it("shows the bot's DM first, even empty, then only the channels the person is in", () => {
    expect(conversationsOf(ws, 'U0FRANK').map((c) => [c.id, c.title, c.kind])).toEqual([
      ['D0FRANK', 'Run:ai Bot', 'dm'],
      ['C0MAINT', '#maintenance', 'channel'],
    ]);
    expect(conversationsOf(ws, 'U0ALICE').map((c) => c.id)).toEqual(['D0ALICE', 'C0MAINT', 'C0PRIVATE']);
  });

  it('shows an ephemeral reply only to the person it was for', () => {
    const texts = (user: string) => conversationsOf(ws, user).find((c) => c.id === 'C0MAINT')!.messages.map((m) => m.text);
    expect(texts('U0ALICE')).toEqual(['window', 'only for alice']);
    expect(texts('U0FRANK')).toEqual(['window']);
  });

  it("renders a person's Home tab as last published, and says when there is none", () => {
    expect(homeHtml(ws, 'U0FRANK')).toContain('has not published a Home tab');
    ws.homeViews.set('U0ALICE', { user: 'U0ALICE', publishedAt: new Date(), view: { type: 'home', blocks: [{ type: 'header', text: { type: 'plain_text', text: 'Your <workloads>' } }] } });
    expect(homeHtml(ws, 'U0ALICE')).toBe('<section class="home" data-home="U0ALICE"><div class="block header">Your &lt;workloads&gt;</div></section>');
  });
});
