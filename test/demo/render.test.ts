/**
 * Block Kit and mrkdwn as the demo page renders them. The text quotes workload logs, so the
 * rendering must show Slack's formatting and never let log text become markup.
 */
import { blockHtml, messageBodyHtml } from '../../src/demo/blocks-html.js';
import { conversationViews, workspaceHtml } from '../../src/demo/conversations-html.js';
import { mrkdwnToHtml, type MrkdwnContext } from '../../src/demo/mrkdwn-html.js';
import { SlackWorkspace } from '../../src/sim/slack-workspace.js';

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
    expect(html('<@U0ALICE> see <#C0MAINT> at <!date^1764403200^{date_short_pretty}|Nov 29 08:00 UTC>')).toBe(
      '<span class="mention">@alice</span> see <span class="mention">#maintenance</span> at <span class="date">Nov 29 08:00 UTC</span>',
    );
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
});

describe('Block Kit as HTML', () => {
  it('renders headers, fields, context and disabled buttons, and names blocks it does not know', () => {
    expect(blockHtml({ type: 'header', text: { type: 'plain_text', text: 'a <b> :x:', emoji: true } }, ctx)).toBe('<div class="block header">a &lt;b&gt; ❌</div>');
    expect(blockHtml({ type: 'section', fields: [{ type: 'mrkdwn', text: '*Node*\ngpu-1' }] }, ctx)).toContain('<div class="field"><b>Node</b><br>gpu-1</div>');
    expect(blockHtml({ type: 'context', elements: [{ type: 'mrkdwn', text: 'small' }] }, ctx)).toContain('<span class="context-element">small</span>');
    expect(blockHtml({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Mute' }, url: 'https://x.example' }] }, ctx)).toBe(
      '<div class="block actions"><button class="button" disabled>Mute <span class="external" aria-hidden="true">↗</span></button></div>',
    );
    expect(blockHtml({ type: 'video' }, ctx)).toBe('<div class="block unsupported">[video block]</div>');
  });

  it('falls back to the text of a message without blocks', () => {
    expect(messageBodyHtml({ text: 'plain *text*' }, ctx)).toContain('plain <b>text</b>');
  });
});

describe('the workspace as the page shows it', () => {
  it('lists DMs (by the person) before channels, each with its messages in order', () => {
    const ws = new SlackWorkspace('T1', 'UBOT');
    ws.addUser({ id: 'U0ALICE', name: 'alice', real_name: 'Alice Martin' });
    ws.addChannel('C0MAINT', 'maintenance');
    const dm = ws.dmWith('U0ALICE');
    ws.post({ channel: 'C0MAINT', ts: '1764403200.000001', text: 'window', via: 'api' });
    ws.post({ channel: dm.id, ts: '1764403201.000001', text: 'first', via: 'api' });
    ws.post({ channel: dm.id, ts: '1764403202.000001', text: 'second', via: 'api' });
    expect(conversationViews(ws).map((v) => [v.title, v.messages.map((m) => m.text)])).toEqual([
      ['Alice Martin', ['first', 'second']],
      ['#maintenance', ['window']],
    ]);
    const page = workspaceHtml(ws);
    expect(page).toContain('Direct message · Alice Martin');
    expect(page).toContain('<time>08:00 UTC</time>');
  });
});
