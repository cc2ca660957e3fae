import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { REQUIRED_BOT_SCOPES } from '../../src/slack/scopes.js';

const MANIFEST_URL = new URL('../../manifest.yml', import.meta.url);
// slackapi/manifest-schema, copied into test/fixtures (source and licence in its README.md).
const SCHEMA_URL = new URL(
  '../fixtures/spec/slack-manifest-schema/manifest.schema.1.0.0.json',
  import.meta.url,
);

interface SlashCommand {
  command: string;
  description: string;
  usage_hint?: string;
  url?: string;
}

const manifest = parse(readFileSync(MANIFEST_URL, 'utf8'));
const schema = JSON.parse(readFileSync(SCHEMA_URL, 'utf8'));

describe('manifest.yml', () => {
  it('is valid against the Slack app manifest schema', () => {
    // The schema is draft-07. It uses Slack's own keywords (`requires`, `regex`), hence
    // strict: false; its one `format: uri` is ignored rather than pulling in ajv-formats.
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(schema);
    const valid = validate(manifest);
    expect(ajv.errorsText(validate.errors)).toBe('No errors');
    expect(valid).toBe(true);
  });

  it('gives a background colour the schema regex accepts (ajv does not check `regex`)', () => {
    expect(manifest.display_information.background_color).toMatch(/^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/);
  });

  it('declares /runai with a description and a usage hint naming every subcommand', () => {
    const commands: SlashCommand[] = manifest.features.slash_commands;
    expect(commands.map((c) => c.command)).toEqual(['/runai']);
    const [runai] = commands;
    expect(runai.description.length).toBeGreaterThan(0);
    for (const sub of ['help', 'list', 'status', 'logs', 'why', 'maintenance', 'mute', 'unmute', 'settings']) {
      expect(runai.usage_hint).toMatch(new RegExp(`\\b${sub}\\b`));
    }
  });

  it('asks for exactly the bot scopes the code requires, no more and no fewer', () => {
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...REQUIRED_BOT_SCOPES].sort());
    expect(manifest.oauth_config.scopes.user).toBeUndefined();
  });

  it('runs in Socket Mode with a bot user, the Home tab, interactivity and app_home_opened', () => {
    expect(manifest.features.bot_user.display_name).toBeTruthy();
    expect(manifest.features.app_home).toMatchObject({ home_tab_enabled: true, messages_tab_enabled: true });
    expect(manifest.settings).toMatchObject({
      socket_mode_enabled: true,
      token_rotation_enabled: false,
      interactivity: { is_enabled: true },
      event_subscriptions: { bot_events: ['app_home_opened'] },
    });
  });

  it('carries no request URLs, which Socket Mode does not use', () => {
    expect(manifest.settings.interactivity.request_url).toBeUndefined();
    expect(manifest.settings.event_subscriptions.request_url).toBeUndefined();
    for (const command of manifest.features.slash_commands as SlashCommand[]) expect(command.url).toBeUndefined();
  });
});
