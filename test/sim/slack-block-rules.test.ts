import { blockProblems, LIMITS, messageViolation, viewViolation } from '../../src/sim/slack-block-rules.js';

const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const plain = (text: string) => ({ type: 'plain_text', text });
const section = (text: string) => ({ type: 'section', text: mrkdwn(text) });
const button = (over: Record<string, unknown> = {}) => ({ type: 'button', action_id: 'retry', text: plain('Retry'), value: 'w', ...over });
const x = (n: number) => 'x'.repeat(n);

describe('Block Kit rules of the simulated Slack', () => {
  it.each([
    ['a section text of 3000 characters', [section(x(3000))]],
    ['a header of 150 characters', [{ type: 'header', text: plain(x(150)) }]],
    ['10 section fields, one of 2000 characters', [{ type: 'section', fields: [mrkdwn(x(2000)), ...Array.from({ length: 9 }, () => mrkdwn('f'))] }]],
    ['10 context elements', [{ type: 'context', elements: Array.from({ length: 10 }, () => mrkdwn('c')) }]],
    ['25 buttons in one actions block', [{ type: 'actions', elements: Array.from({ length: 25 }, (_, i) => button({ action_id: `a${i}` })) }]],
    ['a button text of 75 and a value of 2000 characters', [{ type: 'actions', elements: [button({ text: plain(x(75)), value: x(2000) })] }]],
    ['a block_id of 255 characters', [{ ...section('a'), block_id: x(255) }]],
    ['50 blocks', Array.from({ length: 50 }, () => section('line'))],
    ['a section with a button accessory', [{ ...section('a'), accessory: button() }]],
    ['a divider and an unknown future block type', [{ type: 'divider' }, { type: 'rich_text', elements: [] }]],
  ])('accepts %s', (_label, blocks) => {
    expect(blockProblems(blocks, 'message')).toEqual([]);
    expect(messageViolation({ text: 'fallback', blocks })).toBeUndefined();
  });

  it.each([
    ['51 blocks', Array.from({ length: 51 }, () => section('line')), '/blocks'],
    ['a section text of 3001 characters', [section(x(3001))], '/blocks/0/text/text'],
    ['an empty section text', [section('')], '/blocks/0/text/text'],
    ['a section with neither text nor fields', [{ type: 'section' }], '/blocks/0'],
    ['a header of 151 characters', [{ type: 'header', text: plain(x(151)) }], '/blocks/0/text/text'],
    ['a header in mrkdwn', [{ type: 'header', text: mrkdwn('h') }], '/blocks/0/text'],
    ['11 section fields', [{ type: 'section', fields: Array.from({ length: 11 }, () => mrkdwn('f')) }], '/blocks/0/fields'],
    ['a section field of 2001 characters', [{ type: 'section', fields: [mrkdwn(x(2001))] }], '/blocks/0/fields/0/text'],
    ['11 context elements', [{ type: 'context', elements: Array.from({ length: 11 }, () => mrkdwn('c')) }], '/blocks/0/elements'],
    ['26 buttons in one actions block', [{ type: 'actions', elements: Array.from({ length: 26 }, (_, i) => button({ action_id: `a${i}` })) }], '/blocks/0/elements'],
    ['a button text of 76 characters', [{ type: 'actions', elements: [button({ text: plain(x(76)) })] }], '/blocks/0/elements/0/text/text'],
    ['a button value of 2001 characters', [{ type: 'actions', elements: [button({ value: x(2001) })] }], '/blocks/0/elements/0/value'],
    ['an accessory button text of 76 characters', [{ ...section('a'), accessory: button({ text: plain(x(76)) }) }], '/blocks/0/accessory/text/text'],
    ['two buttons with one action_id in a block', [{ type: 'actions', elements: [button(), button()] }], '/blocks/0/elements/1/action_id'],
    ['a block_id of 256 characters', [{ ...section('a'), block_id: x(256) }], '/blocks/0/block_id'],
    ['a duplicate block_id', [{ ...section('a'), block_id: 'w' }, { ...section('b'), block_id: 'w' }], '/blocks/1/block_id'],
    ['a block without a type', [{ text: mrkdwn('a') }], '/blocks/0'],
  ])('refuses %s with invalid_blocks, pointing at the culprit', (_label, blocks, pointer) => {
    const violation = messageViolation({ text: 'fallback', blocks });
    expect(violation?.error).toBe('invalid_blocks');
    expect(violation?.messages.join('\n')).toContain(`[json-pointer:${pointer}]`);
  });

  it('refuses blocks whose text fallback is missing or blank', () => {
    expect(messageViolation({ blocks: [section('a')] })?.error).toBe('missing_text_fallback');
    expect(messageViolation({ text: '  ', blocks: [section('a')] })?.error).toBe('missing_text_fallback');
  });

  it('refuses a message with neither text nor blocks with no_text', () => {
    expect(messageViolation({})?.error).toBe('no_text');
  });

  it('refuses a text over 40,000 characters with msg_too_long', () => {
    expect(messageViolation({ text: x(LIMITS.messageText) })).toBeUndefined();
    expect(messageViolation({ text: x(LIMITS.messageText + 1) })?.error).toBe('msg_too_long');
  });

  it('refuses blocks whose text adds up past the undocumented 12,000-character cap', () => {
    const blocks = [section(x(3000)), section(x(3000)), section(x(3000)), section(x(3000)), section('y')];
    expect(messageViolation({ text: 'fallback', blocks })?.error).toBe('msg_blocks_too_long');
    expect(messageViolation({ text: 'fallback', blocks: blocks.slice(0, 4) })).toBeUndefined();
  });

  it('refuses markdown blocks past their 12,000-character cumulative limit', () => {
    const blocks = [{ type: 'markdown', text: x(6000) }, { type: 'markdown', text: x(6001) }];
    expect(blockProblems(blocks, 'message')).toEqual(['[ERROR] markdown blocks must total at most 12000 characters [json-pointer:/blocks]']);
  });

  it('allows 100 blocks in a Home tab view and refuses 101', () => {
    const blocks = (n: number) => Array.from({ length: n }, () => ({ type: 'divider' }));
    expect(viewViolation({ type: 'home', blocks: blocks(100) })).toBeUndefined();
    expect(viewViolation({ type: 'home', blocks: blocks(101) })).toEqual({
      error: 'invalid_blocks',
      messages: ['[ERROR] must provide no more than 100 items [json-pointer:/view/blocks]'],
    });
  });
});
