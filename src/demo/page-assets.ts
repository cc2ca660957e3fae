/**
 * The demo page's static parts: the HTML shell, the stylesheet (a light Slack look) and the
 * client script, which only swaps in HTML the server rendered and escaped. They are served
 * as separate files so the page can forbid inline scripts (Content-Security-Policy).
 */

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'";

export const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>runai-slack-bot demo</title>
<link rel="stylesheet" href="/style.css">
<script src="/client.js" defer></script>
</head>
<body>
<header class="topbar">
  <span class="workspace">Example Lab · simulated Slack</span>
  <span id="status" class="status">Starting…</span>
</header>
<main id="conversations" aria-live="polite"><p class="empty">Waiting for the bot to post…</p></main>
</body>
</html>
`;

export const CLIENT_JS = `'use strict';
(function () {
  var main = document.getElementById('conversations');
  var status = document.getElementById('status');
  var version = -1;
  function show(state) {
    if (state.version === version) return;
    version = state.version;
    main.innerHTML = state.html; // rendered and HTML-escaped by the server
    status.textContent = state.status;
    document.body.dataset.version = String(state.version);
    document.body.dataset.done = String(state.done);
  }
  function poll() {
    fetch('/state.json').then(function (r) { return r.json(); }).then(show).catch(function () {});
  }
  if (window.EventSource) {
    var events = new EventSource('/events');
    events.onmessage = function (e) { show(JSON.parse(e.data)); };
    events.onerror = function () { status.textContent = 'Disconnected from the demo; is it still running?'; };
  } else {
    setInterval(poll, 1000);
  }
  poll();
})();
`;

export const STYLE_CSS = `
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.46668 -apple-system, BlinkMacSystemFont, "Segoe UI", Lato, "Helvetica Neue", Arial, sans-serif; color: #1d1c1d; background: #f4f4f5; }
.topbar { display: flex; justify-content: space-between; align-items: center; padding: 10px 20px; background: #3f0e40; color: #fff; }
.workspace { font-weight: 700; }
.status { font-size: 13px; opacity: .85; }
main { display: flex; flex-wrap: wrap; gap: 20px; padding: 20px; align-items: flex-start; }
.empty { color: #616061; }
.conversation { background: #fff; border: 1px solid #dddddd; border-radius: 8px; width: 760px; max-width: 100%; padding: 0 0 8px; }
.conversation-title { margin: 0; padding: 12px 20px; font-size: 16px; border-bottom: 1px solid #e8e8e8; }
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
.button { font: inherit; font-size: 14px; font-weight: 700; color: #1d1c1d; background: #fff; border: 1px solid #c4c4c4; border-radius: 4px; padding: 3px 12px; opacity: .75; cursor: not-allowed; }
.button.primary { color: #fff; background: #007a5a; border-color: #007a5a; }
.button.danger { color: #e01e5a; }
code { font: 12px/1.5 Monaco, Menlo, Consolas, "Courier New", monospace; color: #e01e5a; background: #f8f8f8; border: 1px solid #e8e8e8; border-radius: 3px; padding: 1px 3px; }
.code-block { font: 12px/1.5 Monaco, Menlo, Consolas, "Courier New", monospace; background: #f8f8f8; border: 1px solid #e8e8e8; border-radius: 4px; padding: 8px; margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
a { color: #1264a3; text-decoration: none; }
.mention { color: #1264a3; background: #e8f5fa; border-radius: 3px; padding: 0 2px; }
.unsupported, .image-alt { color: #616061; font-style: italic; }
`;
