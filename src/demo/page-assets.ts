/**
 * The demo page's static parts: the HTML shell, the stylesheet (a light Slack look) and the
 * client script: a small Slack client with a person switcher, a sidebar, a message box and
 * clickable buttons. It only swaps in HTML the server rendered and escaped, and it acts only
 * by asking its own server. They are served as separate files so the page can forbid inline
 * scripts (Content-Security-Policy); nothing is loaded from elsewhere.
 */

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The page, with this server's token for its own POSTs (a cross-origin page cannot read it). */
export function indexHtml(token: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="demo-token" content="${token.replace(/[^A-Za-z0-9_-]/g, '')}">
<title>runai-slack-bot demo</title>
<link rel="stylesheet" href="/style.css">
<script src="/client.js" defer></script>
</head>
<body>
<header class="topbar">
  <span class="workspace">Example Lab · simulated Slack</span>
  <label class="viewer">Acting as <select id="viewer" aria-label="Act as"></select></label>
  <span class="spacer"></span>
  <button type="button" id="next" class="next" hidden></button>
</header>
<p id="status" class="status" role="status">Starting…</p>
<div class="client">
  <nav id="sidebar" class="sidebar" aria-label="Conversations"></nav>
  <main class="main">
    <div id="pane" class="pane" aria-live="polite"><p class="empty">Waiting for the bot…</p></div>
    <form id="composer" class="composer" autocomplete="off">
      <input id="message" name="message" aria-label="Message" placeholder="Message Run:ai Bot">
      <button type="submit" class="send">Send</button>
    </form>
    <p id="composer-error" class="composer-error" role="alert"></p>
    <p class="hint">Try <code>/runai help</code>, <code>/runai list</code>, <code>/runai why sdxl-eval</code>, <code>/runai logs resnet-finetune --tail 20</code>; switch to another person at the top.</p>
  </main>
</div>
</body>
</html>
`;
}

export const CLIENT_JS = `'use strict';
// Every piece of HTML swapped in below was rendered and escaped by the server; everything
// else is set with textContent.
(function () {
  var token = document.querySelector('meta[name="demo-token"]').getAttribute('content');
  var viewerSelect = document.getElementById('viewer');
  var nextButton = document.getElementById('next');
  var statusLine = document.getElementById('status');
  var sidebar = document.getElementById('sidebar');
  var pane = document.getElementById('pane');
  var composer = document.getElementById('composer');
  var input = document.getElementById('message');
  var errorLine = document.getElementById('composer-error');
  var state = null;
  var viewer = '';
  var selected = '';
  var shownHtml = '';
  var shownKey = '';
  var events = null;
  // After the visitor acts, the answer is what they look for: the next new content scrolls into view.
  var follow = false;

  function post(kind, body) {
    return fetch('/act/' + kind, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-demo-token': token },
      body: JSON.stringify(body || {})
    }).then(function (r) {
      return r.json().then(function (answer) {
        if (!answer.ok) throw new Error(answer.error || ('HTTP ' + r.status));
      });
    });
  }

  function showError(err) { errorLine.textContent = err ? String(err.message || err) : ''; }

  function dmOf(s) {
    for (var i = 0; i < s.conversations.length; i++) if (s.conversations[i].kind === 'dm') return s.conversations[i].id;
    return 'home';
  }

  function conversation(id) {
    if (!state) return null;
    for (var i = 0; i < state.conversations.length; i++) if (state.conversations[i].id === id) return state.conversations[i];
    return null;
  }

  function sidebarItem(id, label, count) {
    var b = document.createElement('button');
    b.type = 'button';
    b.className = 'sidebar-item' + (id === selected ? ' selected' : '');
    b.dataset.pane = id;
    b.textContent = label;
    if (count) {
      var c = document.createElement('span');
      c.className = 'count';
      c.textContent = String(count);
      b.appendChild(c);
    }
    return b;
  }

  function heading(text) {
    var h = document.createElement('div');
    h.className = 'sidebar-heading';
    h.textContent = text;
    return h;
  }

  function render() {
    if (!state) return;
    document.body.dataset.version = String(state.version);
    document.body.dataset.done = String(state.done);
    document.body.dataset.viewer = state.viewer;
    statusLine.textContent = state.status;

    if (viewerSelect.options.length !== state.people.length) {
      viewerSelect.textContent = '';
      state.people.forEach(function (p) {
        var o = document.createElement('option');
        o.value = p.id;
        o.textContent = p.name + (p.role ? ' (' + p.role + ')' : '');
        viewerSelect.appendChild(o);
      });
    }
    viewerSelect.value = state.viewer;

    if (state.next) {
      nextButton.hidden = false;
      nextButton.textContent = '▶ ' + state.next.label;
      nextButton.title = 'Play the next event now: ' + state.next.title;
    } else {
      nextButton.hidden = true;
      nextButton.textContent = '';
    }

    if (selected !== 'home' && !conversation(selected)) selected = dmOf(state);
    sidebar.textContent = '';
    sidebar.appendChild(heading('Apps'));
    sidebar.appendChild(sidebarItem('home', 'Run:ai Bot · Home'));
    sidebar.appendChild(heading('Direct messages'));
    state.conversations.forEach(function (c) { if (c.kind === 'dm') sidebar.appendChild(sidebarItem(c.id, c.title, c.messages)); });
    sidebar.appendChild(heading('Channels'));
    state.conversations.forEach(function (c) { if (c.kind === 'channel') sidebar.appendChild(sidebarItem(c.id, c.title, c.messages)); });

    var html = selected === 'home' ? state.home : conversation(selected).html;
    var key = state.viewer + '|' + selected;
    if (html !== shownHtml || key !== shownKey) {
      var stick = key !== shownKey || follow || pane.scrollTop + pane.clientHeight >= pane.scrollHeight - 40;
      if (key === shownKey) follow = false;
      pane.innerHTML = html;
      pane.dataset.pane = selected;
      shownHtml = html;
      shownKey = key;
      if (stick && selected !== 'home') pane.scrollTop = pane.scrollHeight;
    }
    composer.hidden = selected === 'home';
    var c = conversation(selected);
    input.placeholder = c ? 'Message ' + c.title + '   (try /runai help)' : '';
  }

  function connect() {
    if (events) events.close();
    events = new EventSource('/events?user=' + encodeURIComponent(viewer));
    events.onmessage = function (e) {
      var s = JSON.parse(e.data);
      if (viewer && s.viewer !== viewer) return;
      state = s;
      viewer = s.viewer;
      render();
    };
    events.onerror = function () { statusLine.textContent = 'Disconnected from the demo; is it still running?'; };
  }

  function select(id) {
    selected = id;
    showError(null);
    render();
    // Slack sends app_home_opened each time the tab is opened; the bot publishes it fresh.
    if (id === 'home') post('home', { user: viewer }).catch(showError);
  }

  viewerSelect.addEventListener('change', function () {
    viewer = viewerSelect.value;
    state = null;
    selected = '';
    shownKey = '';
    showError(null);
    connect();
  });

  sidebar.addEventListener('click', function (e) {
    var item = e.target.closest('[data-pane]');
    if (item) select(item.dataset.pane);
  });

  nextButton.addEventListener('click', function () {
    nextButton.disabled = true;
    post('next').catch(showError).then(function () { nextButton.disabled = false; });
  });

  pane.addEventListener('click', function (e) {
    var button = e.target.closest('[data-action-id]');
    if (!button || !pane.contains(button)) return;
    var message = button.closest('[data-ts]');
    var where = button.closest('[data-conversation]');
    var body = { user: viewer, actionId: button.dataset.actionId };
    if (button.dataset.value !== undefined) body.value = button.dataset.value;
    if (where && message) {
      body.channel = where.dataset.conversation;
      body.ts = message.dataset.ts;
    }
    // A link button opens its page (the default) and Slack still tells the app about the click.
    if (button.tagName === 'BUTTON') button.disabled = true;
    showError(null);
    follow = true;
    post('action', body).catch(showError).then(function () { if (button.tagName === 'BUTTON') button.disabled = false; });
  });

  composer.addEventListener('submit', function (e) {
    e.preventDefault();
    var text = input.value;
    if (!text.trim()) return;
    showError(null);
    follow = true;
    post('command', { user: viewer, channel: selected, text: text }).then(function () { input.value = ''; }, showError);
  });

  connect();
})();
`;

export const STYLE_CSS = `
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.46668 -apple-system, BlinkMacSystemFont, "Segoe UI", Lato, "Helvetica Neue", Arial, sans-serif; color: #1d1c1d; background: #f4f4f5; }
.topbar { display: flex; gap: 16px; align-items: center; padding: 8px 20px; background: #3f0e40; color: #fff; }
.workspace { font-weight: 700; }
.viewer select { font: inherit; margin-left: 6px; padding: 2px 4px; border-radius: 4px; }
.spacer { flex: 1; }
.next { font: inherit; font-size: 14px; font-weight: 700; color: #3f0e40; background: #fff; border: 0; border-radius: 4px; padding: 4px 12px; cursor: pointer; }
.next:disabled { opacity: .6; cursor: progress; }
.status { margin: 0; padding: 6px 20px; font-size: 13px; color: #1d1c1d; background: #fcf4d6; border-bottom: 1px solid #e8dca8; }
.client { display: flex; height: calc(100vh - 82px); min-height: 480px; }
.sidebar { flex: none; width: 240px; background: #4a154b; color: #cfc3cf; padding: 12px 8px; overflow-y: auto; }
.sidebar-heading { font-size: 13px; padding: 12px 10px 4px; opacity: .8; }
.sidebar-item { display: flex; justify-content: space-between; width: 100%; text-align: left; font: inherit; color: inherit; background: none; border: 0; border-radius: 6px; padding: 4px 10px; cursor: pointer; }
.sidebar-item:hover { background: #350d36; }
.sidebar-item.selected { background: #1164a3; color: #fff; }
.count { font-size: 12px; opacity: .8; }
.main { flex: 1; min-width: 0; display: flex; flex-direction: column; background: #fff; }
.pane { flex: 1; overflow-y: auto; }
.composer { display: flex; gap: 8px; margin: 8px 20px 0; border: 1px solid #c4c4c4; border-radius: 8px; padding: 6px; }
.composer[hidden] { display: none; }
.composer input { flex: 1; font: inherit; border: 0; outline: none; padding: 4px 6px; }
.send { font: inherit; font-weight: 700; color: #fff; background: #007a5a; border: 0; border-radius: 4px; padding: 3px 14px; cursor: pointer; }
.composer-error { margin: 4px 20px 0; min-height: 1.2em; font-size: 13px; color: #e01e5a; }
.hint { margin: 0 20px 10px; font-size: 12px; color: #616061; }
.empty { color: #616061; padding: 0 20px; }
.conversation { padding: 0 0 8px; }
.conversation-title { margin: 0; padding: 12px 20px; font-size: 16px; border-bottom: 1px solid #e8e8e8; position: sticky; top: 0; background: #fff; z-index: 1; }
.home { padding: 8px 24px 16px; max-width: 860px; }
.message { display: flex; gap: 8px; padding: 10px 20px; }
.avatar { flex: none; width: 36px; height: 36px; border-radius: 6px; background: #76b900; color: #fff; font-weight: 700; display: flex; align-items: center; justify-content: center; }
.message-main { min-width: 0; flex: 1; }
.message-meta { display: flex; gap: 6px; align-items: baseline; }
.author { font-weight: 900; }
.app-badge { font-size: 10px; font-weight: 700; color: #616061; background: #e8e8e8; border-radius: 2px; padding: 0 3px; }
time, .note { font-size: 12px; color: #616061; }
.block { margin: 4px 0; overflow-wrap: anywhere; }
.header { font-size: 18px; font-weight: 900; margin: 6px 0 8px; }
.section { display: flex; gap: 12px; }
.section-body { flex: 1; min-width: 0; }
.fields { display: grid; grid-template-columns: 1fr 1fr; gap: 8px 16px; margin-top: 6px; }
.context { font-size: 13px; color: #616061; display: flex; flex-wrap: wrap; gap: 8px; }
.divider { border: 0; border-top: 1px solid #e8e8e8; }
.actions { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.button { display: inline-block; font: inherit; font-size: 14px; font-weight: 700; color: #1d1c1d; background: #fff; border: 1px solid #c4c4c4; border-radius: 4px; padding: 3px 12px; cursor: pointer; text-decoration: none; }
.button:hover { background: #f8f8f8; }
.button:disabled { opacity: .6; cursor: progress; }
.button.primary { color: #fff; background: #007a5a; border-color: #007a5a; }
.message.ephemeral { background: #f8f8f8; }
.thread { margin: 0 20px 6px 64px; border-left: 2px solid #e8e8e8; }
.thread .message { padding: 6px 12px; }
.thread-count { font-size: 13px; font-weight: 700; color: #1264a3; padding: 2px 12px; }
.button.danger { color: #e01e5a; }
code { font: 12px/1.5 Monaco, Menlo, Consolas, "Courier New", monospace; color: #e01e5a; background: #f8f8f8; border: 1px solid #e8e8e8; border-radius: 3px; padding: 1px 3px; }
.code-block { font: 12px/1.5 Monaco, Menlo, Consolas, "Courier New", monospace; background: #f8f8f8; border: 1px solid #e8e8e8; border-radius: 4px; padding: 8px; margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
a { color: #1264a3; text-decoration: none; }
.mention { color: #1264a3; background: #e8f5fa; border-radius: 3px; padding: 0 2px; }
.unsupported, .image-alt { color: #616061; font-style: italic; }
`;
