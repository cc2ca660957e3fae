/**
 * Every action_id and callback the bot uses, in one place, so the Block Kit builders and the
 * listeners that register them cannot drift apart.
 */
export const ACTION = {
  showLog: 'runai_show_log',
  saveLog: 'runai_save_log',
  muteWorkload: 'runai_mute_workload',
  muteProject: 'runai_mute_project',
  openInRunai: 'runai_open_ui',
  homeRefresh: 'runai_home_refresh',
} as const;

export const SLASH_COMMAND = '/runai';
