/** People's mutes and settings, and the owner → Slack user cache, over SQLite. */
import type { Mute } from '../port.js';
import { rowToMute, rowToSlackUser, type Row } from '../rows.js';
import type { SqliteDatabase } from './database.js';

export class SqlitePreferences {
  constructor(private readonly db: SqliteDatabase) {}

  cachedSlackUser(owner: string): { userId: string | null; lookedUpAt: string } | undefined {
    const row = this.db.prepare('SELECT user_id, looked_up_at FROM slack_users WHERE owner = ?').get(owner) as Row | undefined;
    return row && rowToSlackUser(row);
  }

  cacheSlackUser(owner: string, userId: string | null, at: Date): void {
    this.db.prepare('INSERT OR REPLACE INTO slack_users (owner, user_id, looked_up_at) VALUES (?, ?, ?)').run(owner, userId, at.toISOString());
  }

  mute(userId: string, scope: string, until: Date | undefined): void {
    this.db.prepare('INSERT OR REPLACE INTO mutes (user_id, scope, until) VALUES (?, ?, ?)').run(userId, scope, until?.toISOString() ?? null);
  }

  unmute(userId: string, scope: string): boolean {
    return this.db.prepare('DELETE FROM mutes WHERE user_id = ? AND scope = ?').run(userId, scope).changes > 0;
  }

  activeMutes(userId: string, now: Date): Mute[] {
    const rows = this.db
      .prepare('SELECT scope, until FROM mutes WHERE user_id = ? AND (until IS NULL OR until > ?) ORDER BY scope')
      .all(userId, now.toISOString()) as Row[];
    return rows.map(rowToMute);
  }

  getSettings<T>(userId: string): T | undefined {
    const row = this.db.prepare('SELECT json FROM settings WHERE user_id = ?').get(userId) as { json: string } | undefined;
    return row ? (JSON.parse(row.json) as T) : undefined;
  }

  putSettings(userId: string, value: unknown): void {
    this.db.prepare('INSERT OR REPLACE INTO settings (user_id, json) VALUES (?, ?)').run(userId, JSON.stringify(value));
  }

  pruneExpiredMutes(now: Date): number {
    return this.db.prepare('DELETE FROM mutes WHERE until IS NOT NULL AND until <= ?').run(now.toISOString()).changes;
  }
}
