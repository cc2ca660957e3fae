/** People's mutes and settings, and the owner → Slack user cache, over PostgreSQL. */
import type { Mute } from '../port.js';
import { rowToMute, rowToSlackUser } from '../rows.js';
import type { PostgresDatabase } from './database.js';

export class PostgresPreferences {
  constructor(private readonly db: PostgresDatabase) {}

  async cachedSlackUser(owner: string): Promise<{ userId: string | null; lookedUpAt: string } | undefined> {
    const [row] = await this.db.rows('SELECT user_id, looked_up_at FROM slack_users WHERE owner = $1', [owner]);
    return row && rowToSlackUser(row);
  }

  async cacheSlackUser(owner: string, userId: string | null, at: Date): Promise<void> {
    await this.db.run(
      `INSERT INTO slack_users (owner, user_id, looked_up_at) VALUES ($1, $2, $3)
       ON CONFLICT (owner) DO UPDATE SET user_id = excluded.user_id, looked_up_at = excluded.looked_up_at`,
      [owner, userId, at.toISOString()],
    );
  }

  async mute(userId: string, scope: string, until: Date | undefined): Promise<void> {
    await this.db.run(
      'INSERT INTO mutes (user_id, scope, until) VALUES ($1, $2, $3) ON CONFLICT (user_id, scope) DO UPDATE SET until = excluded.until',
      [userId, scope, until?.toISOString() ?? null],
    );
  }

  async unmute(userId: string, scope: string): Promise<boolean> {
    return (await this.db.changes('DELETE FROM mutes WHERE user_id = $1 AND scope = $2', [userId, scope])) > 0;
  }

  async activeMutes(userId: string, now: Date): Promise<Mute[]> {
    const rows = await this.db.rows('SELECT scope, until FROM mutes WHERE user_id = $1 AND (until IS NULL OR until > $2) ORDER BY scope', [userId, now.toISOString()]);
    return rows.map(rowToMute);
  }

  async getSettings<T>(userId: string): Promise<T | undefined> {
    const [row] = await this.db.rows('SELECT json FROM settings WHERE user_id = $1', [userId]);
    return row ? (JSON.parse(row.json as string) as T) : undefined;
  }

  async putSettings(userId: string, value: unknown): Promise<void> {
    await this.db.run('INSERT INTO settings (user_id, json) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET json = excluded.json', [userId, JSON.stringify(value)]);
  }

  async pruneExpiredMutes(now: Date): Promise<number> {
    return this.db.changes('DELETE FROM mutes WHERE until IS NOT NULL AND until <= $1', [now.toISOString()]);
  }
}
