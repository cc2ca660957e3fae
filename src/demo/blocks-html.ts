/**
 * Block Kit → HTML, close to how the Slack client lays messages out: headers, sections with
 * text, fields and an accessory, context lines, dividers, images (as their alt text: the page
 * loads nothing from elsewhere) and action buttons. A button carries its action_id and value
 * so the page can click it (the server checks the message really has that button); a button
 * with a url is a link, and its click is reported too, as Slack does. Pure; unknown blocks are
 * named rather than dropped silently.
 */
import { escapeHtml, mrkdwnToHtml, plainTextHtml, type MrkdwnContext } from './mrkdwn-html.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A text object: mrkdwn or plain_text. */
function textObjectHtml(value: unknown, ctx: MrkdwnContext): string {
  if (!isObject(value)) return '';
  if (value.type === 'mrkdwn') return mrkdwnToHtml(str(value.text), ctx);
  return plainTextHtml(str(value.text), value.emoji !== false);
}

function buttonHtml(element: Json): string {
  const style = element.style === 'primary' || element.style === 'danger' ? ` ${element.style}` : '';
  const label = plainTextHtml(str((element.text as Json | undefined)?.text), true);
  const data = `data-action-id="${escapeHtml(str(element.action_id))}"${typeof element.value === 'string' ? ` data-value="${escapeHtml(element.value)}"` : ''}`;
  const href = typeof element.url === 'string' && /^https?:\/\//i.test(element.url) ? escapeHtml(element.url) : undefined;
  if (href) {
    return `<a class="button${style}" href="${href}" target="_blank" rel="noopener noreferrer" ${data}>${label} <span class="external" aria-hidden="true">↗</span></a>`;
  }
  return `<button type="button" class="button${style}" ${data}>${label}</button>`;
}

function elementHtml(element: unknown, ctx: MrkdwnContext): string {
  if (!isObject(element)) return '';
  switch (element.type) {
    case 'button':
      return buttonHtml(element);
    case 'image':
      return `<span class="image-alt">[${escapeHtml(str(element.alt_text))}]</span>`;
    case 'mrkdwn':
    case 'plain_text':
      return textObjectHtml(element, ctx);
    default:
      return `<span class="unsupported">[${escapeHtml(str(element.type))}]</span>`;
  }
}

function sectionHtml(block: Json, ctx: MrkdwnContext): string {
  const text = block.text ? `<div class="section-text">${textObjectHtml(block.text, ctx)}</div>` : '';
  const fields = Array.isArray(block.fields) && block.fields.length
    ? `<div class="fields">${block.fields.map((f) => `<div class="field">${textObjectHtml(f, ctx)}</div>`).join('')}</div>`
    : '';
  const accessory = block.accessory ? `<div class="accessory">${elementHtml(block.accessory, ctx)}</div>` : '';
  return `<div class="block section"><div class="section-body">${text}${fields}</div>${accessory}</div>`;
}

export function blockHtml(block: unknown, ctx: MrkdwnContext): string {
  if (!isObject(block)) return '';
  const elements = Array.isArray(block.elements) ? block.elements : [];
  switch (block.type) {
    case 'header':
      return `<div class="block header">${textObjectHtml(block.text, ctx)}</div>`;
    case 'section':
      return sectionHtml(block, ctx);
    case 'context':
      return `<div class="block context">${elements.map((e) => `<span class="context-element">${elementHtml(e, ctx)}</span>`).join('')}</div>`;
    case 'divider':
      return '<hr class="block divider">';
    case 'actions':
      return `<div class="block actions">${elements.map((e) => elementHtml(e, ctx)).join('')}</div>`;
    case 'image':
      return `<div class="block image-alt">[image: ${escapeHtml(str(block.alt_text))}]</div>`;
    default:
      return `<div class="block unsupported">[${escapeHtml(str(block.type))} block]</div>`;
  }
}

/** A message body: its blocks, or its text when it has none (Slack shows `text` only then). */
export function messageBodyHtml(message: { text: string; blocks?: unknown[] }, ctx: MrkdwnContext): string {
  if (message.blocks?.length) return message.blocks.map((b) => blockHtml(b, ctx)).join('');
  return `<div class="block section"><div class="section-text">${mrkdwnToHtml(message.text, ctx)}</div></div>`;
}
