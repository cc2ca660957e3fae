/**
 * A simulated Slack on 127.0.0.1: the Web API methods this app calls, Socket Mode, and
 * response_url. The real @slack/bolt talks to it through `clientOptions.slackApiUrl`.
 * Integration tests drive and inspect it; the `demo` command runs the bot against it and
 * renders what the bot posted.
 *
 * Protocol, limits and traps: as Slack documents them (Web API, Socket Mode, rate tiers).
 * Deliberate differences from real Slack: blocks without a `text` fallback are refused
 * (`missing_text_fallback`), where Slack only warns; message text over 40,000 characters is
 * refused (`msg_too_long`), where Slack truncates. As in Slack, the bot posts only where it is
 * a member (`inviteBot` is a person's `/invite`), or to public channels with chat:write.public.
 */
import { EventEmitter, once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SlackFaults } from './slack-faults.js';
import { METHODS, type Json, type TokenKind } from './slack-methods.js';
import {
  blockActionPayload,
  eventCallbackPayload,
  slashCommandPayload,
  type BlockActionInput,
  type SlashCommandInput,
  type Team,
} from './slack-payloads.js';
import { parseApiArgs, readRawBody } from './slack-request.js';
import { SlackFiles, type SimulatedFile } from './slack-files.js';
import { ResponseUrls, type ResponsePost } from './slack-response-urls.js';
import { SocketModeLink } from './slack-socket.js';
import { SlackWorkspace, type ChannelFlags, type SlackChannel, type SlackUser } from './slack-workspace.js';

export type { Json } from './slack-methods.js';
export type { SlackUser, SlackChannel, ChannelFlags, PostedMessage, HomeView } from './slack-workspace.js';
export type { BlockActionInput, SlashCommandInput } from './slack-payloads.js';
export type { ResponsePost } from './slack-response-urls.js';
export type { SimulatedFile } from './slack-files.js';

export interface SlackSimulatorOptions {
  botToken?: string;
  appToken?: string;
  /** Scopes reported in `x-oauth-scopes` for the bot token (the `check` command compares them). */
  scopes?: string[];
  teamId?: string;
  appId?: string;
  botUserId?: string;
  botId?: string;
  now?: () => Date;
  /**
   * Enforce Slack's published rate limits (per-method tiers, chat.postMessage 1/s per channel
   * and a few hundred a minute): 429 with Retry-After beyond them. Off unless asked for, so
   * tests that do not study rate limits keep their speed; the benchmarks turn it on.
   */
  rateTiers?: boolean;
}

/** One Web API request as the simulation received and answered it. */
export interface RecordedCall {
  method: string;
  /** Parsed arguments; `blocks` and `view` JSON-decoded; the token removed. */
  body: Json;
  token: string | undefined;
  at: Date;
  status: number;
  response: Json | string;
}

/** What a slash command or button click got back: the ack, and the replies sent later. */
export interface EnvelopeResult {
  ack: Json;
  /** Names the response_url handed to the app (see `responsesFor`); absent for Home tab buttons. */
  responseId?: string;
  /** Resolves with the next post to this response_url (the first, then the second, …). */
  nextResponse(timeoutMs?: number): Promise<ResponsePost>;
}

export const DEFAULT_SCOPES = ['chat:write', 'im:write', 'users:read', 'users:read.email', 'commands', 'usergroups:read', 'channels:read', 'files:write'];
const DEFAULT_WAIT_MS = 5000;

export class SlackSimulator {
  readonly botToken: string;
  readonly appToken: string;
  readonly workspace: SlackWorkspace;
  readonly calls: RecordedCall[] = [];
  /** Files uploaded through files.getUploadURLExternal → upload URL → files.completeUploadExternal. */
  readonly files = new SlackFiles();
  /** POSTs to upload URLs, in order (they are not Web API calls). */
  readonly uploads: Array<{ status: number; bytes: number; authorization?: string }> = [];
  private scopes: string[];
  private readonly team: Team;
  private readonly botId: string;
  private readonly now: () => Date;
  private readonly faults = new SlackFaults();
  private readonly link: SocketModeLink;
  private readonly responseUrls: ResponseUrls;
  private readonly recorded = new EventEmitter();
  private readonly acceptHooks = new Set<(call: RecordedCall) => void>();
  private readonly server = http.createServer((req, res) => void this.route(req, res));

  private constructor(options: SlackSimulatorOptions) {
    this.botToken = options.botToken ?? 'xoxb-simulated-bot-token';
    this.appToken = options.appToken ?? 'xapp-simulated-app-token';
    this.scopes = options.scopes ?? DEFAULT_SCOPES;
    this.botId = options.botId ?? 'BSIMBOT';
    this.now = options.now ?? (() => new Date());
    this.team = { teamId: options.teamId ?? 'TSIM', appId: options.appId ?? 'ASIMAPP', botUserId: options.botUserId ?? 'USIMBOT' };
    this.workspace = new SlackWorkspace(this.team.teamId, this.team.botUserId);
    this.responseUrls = new ResponseUrls(this.workspace, this.now);
    this.link = new SocketModeLink(this.team.appId, () => this.recorded.emit('socket'));
    this.recorded.setMaxListeners(0);
    this.server.on('upgrade', (req, socket, head) => {
      // A ticket handed out just before an outage must not reach a Slack that is down.
      if (this.faults.outage()) return void socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
      this.link.upgrade(req, socket, head);
    });
  }

  /** Starts the simulation on 127.0.0.1 on a free port. */
  static async start(options: SlackSimulatorOptions = {}): Promise<SlackSimulator> {
    const slack = new SlackSimulator(options);
    if (options.rateTiers) slack.enforceRateTiers(true);
    slack.server.listen(0, '127.0.0.1');
    await once(slack.server, 'listening');
    return slack;
  }

  /** `http://127.0.0.1:PORT`. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The value for `clientOptions.slackApiUrl`. */
  get apiUrl(): string {
    return `${this.url}/api/`;
  }

  // the workspace

  addUser(user: SlackUser): SlackUser {
    return this.workspace.addUser(user);
  }

  addChannel(id: string, name: string, members: string[] = [], flags: ChannelFlags = {}): SlackChannel {
    return this.workspace.addChannel(id, name, members, flags);
  }

  addUserGroup(id: string, members: string[]): void {
    this.workspace.addUserGroup(id, members);
  }

  /** Someone types `/invite @bot` in the channel: the bot may post there from now on. */
  inviteBot(channelId: string): void {
    this.workspace.join(channelId, this.team.botUserId);
  }

  setScopes(scopes: string[]): void {
    this.scopes = [...scopes];
  }

  // what the app did

  callsTo(method: string): RecordedCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Files shared into a conversation (a user id finds the bot's DM with them), oldest first. */
  filesSharedIn(channelOrUser: string): SimulatedFile[] {
    const channel = this.workspace.resolveChannel(channelOrUser);
    return channel ? this.files.completed().filter((f) => f.channel === channel.id) : [];
  }

  /** Accepted chat.postMessage calls into a conversation; a user id also finds the bot's DM with them. */
  messagesTo(channelOrUser: string): RecordedCall[] {
    const channel = this.workspace.resolveChannel(channelOrUser)?.id ?? channelOrUser;
    return this.callsTo('chat.postMessage').filter((c) => isOk(c.response) && c.response.channel === channel);
  }

  /** The first call, past or future, that matches; rejects after `timeoutMs`. */
  waitFor(predicate: (call: RecordedCall) => boolean, timeoutMs = DEFAULT_WAIT_MS): Promise<RecordedCall> {
    return this.waitForRecord('call', () => this.calls.find(predicate), timeoutMs, 'a matching Web API call');
  }

  /** Every post the app made to a response_url, in order. */
  get responses(): ResponsePost[] {
    return this.responseUrls.posts;
  }

  responsesFor(id: string): ResponsePost[] {
    return this.responseUrls.postsTo(id);
  }

  /** The `index`-th post (from 0) to response_url `id`, past or future. */
  waitForResponse(id: string, index = 0, timeoutMs = DEFAULT_WAIT_MS): Promise<ResponsePost> {
    return this.waitForRecord('response', () => this.responsesFor(id)[index], timeoutMs, `response #${index + 1} to ${id}`);
  }

  /** How many 429 answers have been sent. */
  get rateLimitedCount(): number {
    return this.faults.rateLimitedCount;
  }

  // trouble on request

  /** Answer the next `calls` calls of `method` with HTTP 429 and `Retry-After: retryAfterSec`. */
  /** Every call of `method` for the next `forMs` is refused with 429 and the time left (SlackFaults.rateLimitUntil). */
  rateLimitFor(method: string, forMs: number): void {
    this.faults.rateLimitUntil(method, this.now().getTime() + forMs);
  }

  rateLimitNext(method: string, calls: number, retryAfterSec: number): void {
    this.faults.rateLimitNext(method, calls, retryAfterSec);
  }

  /** Limit chat.postMessage to `perSecond` per channel (429 beyond it); undefined lifts the limit. */
  enforcePerChannelRate(perSecond: number | undefined = 1): void {
    this.faults.enforcePerChannelRate(perSecond);
  }

  /** Slack's per-method tiers and chat.postMessage limits (see SlackSimulatorOptions.rateTiers). */
  enforceRateTiers(on = true): void {
    this.faults.enforceRateTiers(on);
  }

  /** How many 429 answers each method got. */
  get rateLimitedByMethod(): Record<string, number> {
    return Object.fromEntries(this.faults.rateLimitedBy);
  }

  /** Answer the next `calls` calls of `method` with `{ok:false, error}`. */
  failNext(method: string, error: string, calls = 1): void {
    this.faults.failNext(method, error, calls);
  }

  /** Every call with the bot token answers `token_revoked` until `revokeBotToken(false)` (the secret was fixed). */
  revokeBotToken(revoked = true): void {
    this.faults.revokeBotToken(revoked);
  }

  /** Answer the next `calls` calls of `method` with a bare HTTP `status` (e.g. 503), not Slack's JSON. */
  failNextHttp(method: string, status: number, calls = 1): void {
    this.faults.failNextHttp(method, status, calls);
  }

  /** Ends the failures queued for `method` by failNext / failNextHttp. */
  clearFailures(method: string): void {
    this.faults.clearFailures(method);
  }

  /**
   * An outage: every HTTP request gets 503 until `down(false)`. Open Socket Mode connections stay
   * up, unless `sockets` is set: then they are cut without a close handshake, as when Slack's edge
   * goes away, and no new one can open (apps.connections.open answers 503 too).
   */
  down(isDown: boolean, options: { sockets?: boolean } = {}): void {
    this.faults.down(isDown);
    if (isDown && options.sockets) this.link.cutAll();
  }

  /**
   * Calls `hook` for each Web API call answered `ok:true`, after it is recorded and before the
   * answer leaves: a crash harness can kill the app between Slack accepting a message and the
   * app hearing so. Returns a function that removes the hook.
   */
  onAccept(hook: (call: RecordedCall) => void): () => void {
    this.acceptHooks.add(hook);
    return () => this.acceptHooks.delete(hook);
  }

  // Socket Mode: Slack → app

  get socketConnections(): number {
    return this.link.connected;
  }

  /** Times at which the app opened a Socket Mode connection (a reconnect adds one). */
  get socketConnectionsOpened(): Date[] {
    return [...this.link.connectionsOpened];
  }

  /** Resolves once the app has opened `count` Socket Mode connections in all (a reconnect counts). */
  waitForSocketConnections(count: number, timeoutMs = DEFAULT_WAIT_MS): Promise<number> {
    const reached = () => (this.link.connectionsOpened.length >= count ? this.link.connectionsOpened.length : undefined);
    return this.waitForRecord('socket', reached, timeoutMs, `${count} Socket Mode connections`);
  }

  /** A user types a slash command (by default in their DM with the app). */
  async sendSlashCommand(input: SlashCommandInput, timeoutMs?: number): Promise<EnvelopeResult> {
    const { command, responseId } = this.commandRequest(input);
    const ack = await this.link.send('slash_commands', command, timeoutMs);
    return this.envelopeResult(ack, responseId);
  }

  /** A user clicks a button: in a message when `channel_id` is given, else in the Home tab. */
  async sendBlockAction(input: BlockActionInput, timeoutMs?: number): Promise<EnvelopeResult> {
    const { interaction, responseId } = this.interactionRequest(input);
    const ack = await this.link.send('interactive', interaction, timeoutMs);
    return this.envelopeResult(ack, responseId);
  }

  /** An Events API event (e.g. `{type:'app_home_opened', user, tab:'home'}`), wrapped as Slack does. */
  sendEvent(event: Json, timeoutMs?: number): Promise<Json> {
    return this.link.send('events_api', this.eventRequest(event).event, timeoutMs);
  }

  /** A user opens the app's Home tab: app_home_opened, with the view last published for them, as Slack sends it. */
  openHomeTab(userId: string, timeoutMs?: number): Promise<Json> {
    return this.sendEvent(this.homeOpenedEvent(userId), timeoutMs);
  }

  /** The app_home_opened event Slack sends when `userId` opens the Home tab (HTTP mode: wrap with eventRequest). */
  homeOpenedEvent(userId: string): Json {
    const published = this.workspace.homeViews.get(userId);
    const view = published ? { id: `V${userId.replace(/^[UW]/, '')}`, team_id: this.team.teamId, app_id: this.team.appId, ...published.view } : undefined;
    return { type: 'app_home_opened', user: userId, channel: this.workspace.dmWith(userId).id, tab: 'home', ...(view ? { view } : {}) };
  }

  // HTTP mode: the same payloads, for `signedRequest(url, body, secret)`

  /** A slash command as Slack posts it (form fields), with a response_url on this simulation. */
  commandRequest(input: SlashCommandInput): { command: Record<string, string>; responseId: string } {
    const channel = input.channel_id ?? this.workspace.dmWith(input.user_id).id;
    const { id, url } = this.responseUrls.create({ channel, user: input.user_id }, this.url);
    return { command: slashCommandPayload(this.team, { ...input, channel_id: channel }, url), responseId: id };
  }

  /** A block_actions interaction as Slack posts it (`payload=` form field). */
  interactionRequest(input: BlockActionInput): { interaction: Json; responseId?: string } {
    const response = input.channel_id === undefined
      ? undefined
      : this.responseUrls.create({ channel: input.channel_id, user: input.user_id, messageTs: input.message_ts }, this.url);
    return { interaction: blockActionPayload(this.team, input, response?.url, this.now()), responseId: response?.id };
  }

  /** An Events API callback as Slack posts it (JSON). */
  eventRequest(event: Json): { event: Json } {
    return { event: eventCallbackPayload(this.team, event, this.now()) };
  }

  /** Slack's `disconnect` message (`refresh_requested`, `warning`, `link_disabled`, …). */
  disconnectSockets(reason = 'refresh_requested'): void {
    this.link.disconnectAll(reason);
  }

  async close(): Promise<void> {
    await this.link.close();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  // serving requests

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', this.url).pathname;
    const bytes = await readRawBody(req);
    if (path.startsWith('/upload/v1/')) {
      const outage = this.faults.outage();
      if (outage) return send(res, outage.status, outage.body);
      const { status, text } = this.files.receive(path.slice('/upload/v1/'.length), bytes, req.headers['content-type']);
      this.uploads.push({ status, bytes: bytes.length, ...(req.headers.authorization && { authorization: req.headers.authorization }) });
      this.recorded.emit('call');
      return send(res, status, text);
    }
    const raw = bytes.toString('utf8');
    if (path.startsWith('/api/')) return this.answerApi(path.slice('/api/'.length), req, raw, res);
    if (path.startsWith('/respond/')) {
      const outage = this.faults.outage();
      if (outage) return send(res, outage.status, outage.body);
      const { status, text } = this.responseUrls.receive(path.slice('/respond/'.length), raw);
      this.recorded.emit('response');
      return send(res, status, text);
    }
    send(res, 404, 'not_found');
  }

  private answerApi(method: string, req: IncomingMessage, raw: string, res: ServerResponse): void {
    const parsed = parseApiArgs(raw, req.headers['content-type'], req.headers.authorization);
    const args = 'args' in parsed ? parsed.args : {};
    const { status, headers, body } = this.decideApi(method, parsed, args, req.headers.host);
    const call: RecordedCall = { method, body: args, token: parsed.token, at: this.now(), status, response: body };
    this.calls.push(call);
    this.recorded.emit('call');
    if (isOk(body)) for (const hook of this.acceptHooks) hook(call);
    send(res, status, body, headers);
  }

  private decideApi(method: string, parsed: ReturnType<typeof parseApiArgs>, args: Json, host: string | undefined): { status: number; headers: Record<string, string>; body: Json | string } {
    const outage = this.faults.outage();
    if (outage) return outage;
    const spec = METHODS[method];
    if (!spec) return answer({ ok: false, error: 'unknown_method' });
    const kind = this.tokenKind(parsed.token);
    if (!parsed.token) return answer({ ok: false, error: 'not_authed' });
    if (!kind) return answer({ ok: false, error: 'invalid_auth' });
    const rejected = this.faults.tokenRejected(kind);
    if (rejected) return rejected;
    const scopeHeader = { 'x-oauth-scopes': kind === 'bot' ? this.scopes.join(',') : 'connections:write' };
    if (kind !== spec.token) return answer({ ok: false, error: 'not_allowed_token_type' }, scopeHeader);
    if ('error' in parsed) return answer({ ok: false, error: parsed.error }, scopeHeader);
    if (spec.scope && !this.scopes.includes(spec.scope)) return answer({ ok: false, error: 'missing_scope', needed: spec.scope, provided: this.scopes.join(',') }, scopeHeader);
    const channel = typeof args.channel === 'string' ? this.workspace.resolveChannel(args.channel)?.id : undefined;
    const fault = this.faults.intercept(method, channel, this.now().getTime());
    if (fault) return { ...fault, headers: { ...scopeHeader, ...fault.headers } };
    const body = spec.answer({
      args,
      workspace: this.workspace,
      now: this.now(),
      appId: this.team.appId,
      botId: this.botId,
      scopes: this.scopes,
      // On the host the app reached the API by (as real Slack's wss URL is on a Slack host name),
      // so an app that reaches Slack by name, through a proxy, is handed a socket URL by name too.
      openSocketUrl: () => this.link.issueUrl(host ? `http://${host}` : this.url),
      files: this.files,
      // Like the socket URL, on the host the app reached the API by.
      uploadUrl: (token) => `${host ? `http://${host}` : this.url}/upload/v1/${token}`,
    });
    return answer(body, scopeHeader);
  }

  private tokenKind(token: string | undefined): TokenKind | undefined {
    if (token === this.botToken) return 'bot';
    if (token === this.appToken) return 'app';
    return undefined;
  }

  private envelopeResult(ack: Json, responseId: string | undefined): EnvelopeResult {
    let taken = 0;
    return {
      ack,
      responseId,
      nextResponse: (timeoutMs = DEFAULT_WAIT_MS) => {
        if (!responseId) return Promise.reject(new Error('simulated Slack: this interaction has no response_url'));
        return this.waitForResponse(responseId, taken++, timeoutMs);
      },
    };
  }

  private waitForRecord<T>(event: 'call' | 'response' | 'socket', find: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    const found = find();
    if (found !== undefined) return Promise.resolve(found);
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        const hit = find();
        if (hit === undefined) return;
        cleanup();
        resolve(hit);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`simulated Slack: waited ${timeoutMs} ms for ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.recorded.off(event, check);
      };
      this.recorded.on(event, check);
    });
  }
}

function answer(body: Json, headers: Record<string, string> = {}): { status: number; headers: Record<string, string>; body: Json } {
  return { status: 200, headers, body };
}

function isOk(response: Json | string): response is Json {
  return typeof response === 'object' && response.ok === true;
}

function send(res: ServerResponse, status: number, body: Json | string, headers: Record<string, string> = {}): void {
  const isJson = typeof body === 'object';
  res.writeHead(status, { 'content-type': isJson ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8', ...headers });
  res.end(isJson ? JSON.stringify(body) : body);
}
