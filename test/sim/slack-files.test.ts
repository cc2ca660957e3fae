/**
 * The simulated Slack's file upload flow (files.getUploadURLExternal → POST to the upload URL →
 * files.completeUploadExternal), with the real WebClient's filesUploadV2 and with raw calls for
 * what the simulation refuses.
 */
import { WebClient } from '@slack/web-api';
import { ALICE, DEFAULT_SCOPES, startFakeSlack, type SlackSimulator } from '../fakes/slack.js';

let slack: SlackSimulator;
let client: WebClient;

async function api(method: string, args: Record<string, unknown>) {
  const form = Object.entries(args).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
  const response = await fetch(`${slack.apiUrl}${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${slack.botToken}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return (await response.json()) as Record<string, unknown>;
}

beforeEach(async () => {
  slack = await startFakeSlack();
  client = new WebClient(slack.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
});

afterEach(async () => {
  await slack.close();
});

describe('simulated Slack file uploads', () => {
  it("takes the WebClient's filesUploadV2 into a DM: the bytes, the title, the comment as the message", async () => {
    const { channel } = await client.conversations.open({ users: ALICE.id });
    const content = Buffer.from('line 1\nline 2 \u00e9\n');
    const result = await client.filesUploadV2({ channel_id: channel!.id!, file: content, filename: 'resnet.log', title: 'resnet log', initial_comment: 'The whole log' });
    expect(result.ok).toBe(true);
    const [file] = slack.filesSharedIn(ALICE.id);
    expect(file).toMatchObject({ filename: 'resnet.log', title: 'resnet log', length: content.length, initialComment: 'The whole log', completed: true });
    expect(file.bytes!.equals(content)).toBe(true);
    expect(slack.calls.map((c) => c.method)).toEqual(['conversations.open', 'files.getUploadURLExternal', 'files.completeUploadExternal']);
    // The WebClient posts the bytes as a multipart form (file-upload.ts), which the simulation takes apart.
    expect(slack.uploads).toHaveLength(1);
    expect(slack.uploads[0]).toMatchObject({ status: 200 });
    expect(slack.workspace.conversation(ALICE.id).at(-1)).toMatchObject({ text: 'The whole log', files: [file.id] });
  });

  it('takes the bytes as a multipart form too, as curl -F sends them', async () => {
    const { upload_url, file_id } = await api('files.getUploadURLExternal', { filename: 'a.log', length: 5 });
    const form = new FormData();
    form.append('filename', new Blob([Buffer.from('hello')]), 'a.log');
    const posted = await fetch(String(upload_url), { method: 'POST', body: form });
    expect([posted.status, await posted.text()]).toEqual([200, 'OK - 5']);
    expect(await api('files.completeUploadExternal', { files: [{ id: file_id }] })).toMatchObject({ ok: true, files: [{ id: file_id, title: 'a.log' }] });
    expect(slack.files.get(String(file_id))!.bytes!.toString()).toBe('hello');
  });

  it('refuses what Slack refuses: no length, no bytes, a second completion, a bad files list, an unknown URL', async () => {
    expect(await api('files.getUploadURLExternal', { filename: 'a.log', length: 0 })).toMatchObject({ ok: false, error: 'missing_argument' });
    expect(await api('files.getUploadURLExternal', { length: 10 })).toMatchObject({ ok: false, error: 'missing_argument' });
    const { upload_url, file_id } = await api('files.getUploadURLExternal', { filename: 'a.log', length: 3 });
    expect(await api('files.completeUploadExternal', { files: [{ id: file_id }] })).toMatchObject({ ok: false, error: 'file_not_found' });
    await fetch(String(upload_url), { method: 'POST', body: 'abc' });
    expect(await api('files.completeUploadExternal', { files: 'nope' })).toMatchObject({ ok: false, error: 'invalid_arguments' });
    expect(await api('files.completeUploadExternal', { files: [{ id: file_id }], channel_id: 'C0NOPE' })).toMatchObject({ ok: false, error: 'channel_not_found' });
    expect(await api('files.completeUploadExternal', { files: [{ id: file_id }] })).toMatchObject({ ok: true });
    expect(await api('files.completeUploadExternal', { files: [{ id: file_id }] })).toMatchObject({ ok: false, error: 'file_not_found' });
    expect((await fetch(String(upload_url), { method: 'POST', body: 'again' })).status).toBe(404);
    expect((await fetch(`${slack.url}/upload/v1/forged`, { method: 'POST', body: 'x' })).status).toBe(404);
  });

  it('answers missing_scope without files:write, naming the scope needed', async () => {
    slack.setScopes(DEFAULT_SCOPES.filter((s) => s !== 'files:write'));
    expect(await api('files.getUploadURLExternal', { filename: 'a.log', length: 3 })).toMatchObject({ ok: false, error: 'missing_scope', needed: 'files:write' });
    expect(await api('files.completeUploadExternal', { files: [{ id: 'F1' }] })).toMatchObject({ ok: false, error: 'missing_scope', needed: 'files:write' });
  });

  it('shares into a public channel only when the bot is in it', async () => {
    slack.addChannel('C0PUB', 'pub', [ALICE.id]);
    const { upload_url, file_id } = await api('files.getUploadURLExternal', { filename: 'a.log', length: 3 });
    await fetch(String(upload_url), { method: 'POST', body: 'abc' });
    expect(await api('files.completeUploadExternal', { files: [{ id: file_id }], channel_id: 'C0PUB' })).toMatchObject({ ok: false, error: 'not_in_channel' });
  });
});
