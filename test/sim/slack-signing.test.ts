import { encodeBody, slackSignature } from '../../src/sim/slack-signing.js';

describe('Slack request signing', () => {
  it("reproduces the signature of Slack's documented example request", () => {
    // api.slack.com/authentication/verifying-requests-from-slack, "a walkthrough"
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar' +
      '&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=' +
      '&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN' +
      '&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect(slackSignature('8f742231b10e8888abcd99yyyzzz85a5', 1531420618, body)).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
  });

  it('encodes commands and interactions as exact form posts and events as JSON', () => {
    expect(encodeBody({ command: { command: '/runai', text: 'a b' } })).toEqual({
      raw: 'command=%2Frunai&text=a+b',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(encodeBody({ interaction: { type: 'block_actions' } })).toEqual({
      raw: 'payload=%7B%22type%22%3A%22block_actions%22%7D',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(encodeBody({ event: { type: 'event_callback' } })).toEqual({ raw: '{"type":"event_callback"}', contentType: 'application/json' });
  });
});
