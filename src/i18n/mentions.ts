/**
 * The slash commands that texts mention. A text writes a mention as `{/setup channel}` (the path in
 * English); `t()` fills in the command's name in the text's language (`/inställningar kanal`), so a
 * renamed command is renamed in every text that mentions it and no text hard-codes a name.
 * index.ts checks that each path's keys are name keys of the catalogues.
 */
export const COMMAND_MENTIONS = {
  help: ['help.name'],
  status: ['status.name'],
  setup: ['setup.name'],
  'setup eventor': ['setup.name', 'setup.eventor.name'],
  'setup language': ['setup.name', 'setup.language.name'],
  'setup timezone': ['setup.name', 'setup.timezone.name'],
  'setup channel': ['setup.name', 'setup.channel.name'],
  'setup show': ['setup.name', 'setup.show.name'],
  'setup linking': ['setup.name', 'linking.setup.name'],
  feeds: ['feeds.name'],
  'feeds on': ['feeds.name', 'feeds.on.name'],
  'feeds off': ['feeds.name', 'feeds.off.name'],
  'feeds pause': ['feeds.name', 'feeds.pause.name'],
  'feeds resume': ['feeds.name', 'feeds.resume.name'],
  'feeds role': ['feeds.name', 'feeds.role.name'],
  'feeds reminders': ['feeds.name', 'feeds.reminders.name'],
  'feeds quiet': ['feeds.name', 'feeds.quiet.name'],
  'feeds events-filter': ['feeds.name', 'feeds.filter.name'],
  'feeds threads': ['feeds.name', 'feeds.threads.name'],
  'feeds test': ['feeds.name', 'feeds.test.name'],
  'feeds show': ['feeds.name', 'feeds.show.name'],
  events: ['events.name'],
  event: ['event.name'],
  entries: ['entries.name'],
  starts: ['members.starts.name'],
  results: ['members.results.name'],
  splits: ['splits.name'],
  activities: ['members.activities.name'],
  activity: ['members.activity.name'],
  login: ['login.name'],
  card: ['card.name'],
  link: ['linking.link.name'],
  'link eventor': ['linking.link.name', 'linking.link.eventor.name'],
  'link request': ['linking.link.name', 'linking.link.request.name'],
  'link default': ['linking.link.name', 'linking.link.default.name'],
  unlink: ['linking.unlink.name'],
  whoami: ['linking.whoami.name'],
  notify: ['notify.name'],
  'notify on': ['notify.name', 'notify.on.name'],
  'notify off': ['notify.name', 'notify.off.name'],
  'notify show': ['notify.name', 'notify.show.name'],
  admin: ['linking.admin.name'],
  'admin link': ['linking.admin.name', 'linking.admin.link.name'],
  'admin links': ['linking.admin.name', 'linking.admin.links.name'],
  'admin audit': ['linking.admin.name', 'linking.admin.audit.name'],
  'forget-me': ['linking.forget.name'],
  next: ['next.name'],
  live: ['live.name'],
  'live show': ['live.name', 'live.show.name'],
  'live link': ['live.name', 'live.link.name'],
  'feeds live': ['feeds.name', 'feeds.live.name'],
  season: ['season.name'],
  'season member': ['season.name', 'season.member.name'],
  'season club': ['season.name', 'season.club.name'],
  'season cup': ['season.name', 'season.cup.name'],
  cup: ['cup.name'],
  'cup create': ['cup.name', 'cup.create.name'],
  'cup edit': ['cup.name', 'cup.edit.name'],
  'cup delete': ['cup.name', 'cup.delete.name'],
  'cup show': ['cup.name', 'cup.show.name'],
} as const;

export type CommandPath = keyof typeof COMMAND_MENTIONS;

export function isCommandPath(path: string): path is CommandPath {
  return Object.hasOwn(COMMAND_MENTIONS, path);
}
