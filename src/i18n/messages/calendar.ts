import { defineMessages } from '../define.js';

/** The `calendar` kind: races as the server's scheduled events, its notices and its lines in /feeds and /setup. */
export const calendar = defineMessages({
  en: {
    'feeds.calendar.noRole':
      '{kind} makes scheduled events, not posts, so no role is mentioned; members mark them Interested to be reminded.',
    'feeds.filter.calendarDone':
      "Races in the server's Events: also events of these levels, besides the races the club organises or has entered: {levels}.",
    'feeds.filter.calendarCleared': "Races in the server's Events: only the races the club organises or has entered.",
    'feeds.opt.filterKind.description': 'Which kind it is for (default: new events)',
    'setup.kind.calendar': "Races in the server's Events",
    'scheduler.kind.calendar': "races in the server's Events",
    'scheduler.summary.calendar': { one: '{count} race in Events', other: '{count} races in Events' },
    'scheduler.paused.calendar':
      "The races in the server's Events are paused: Discord refused the bot a scheduled event. Give the bot's role Create Events and Manage Events (Server Settings → Roles); they resume by themselves.",
    'scheduler.calendarFull':
      'The server has 100 upcoming scheduled events, the most Discord allows: some races are left out of Events for now. The nearest races are kept; the others follow as earlier events end.',

    'calendar.cancelled': '❌ Cancelled in Eventor',
    'calendar.organisers': 'Organiser: {names}',
    'calendar.deadline': 'Entry deadline: {when}',
    'calendar.deadlineLate': 'Late entry until: {when}',
    'calendar.entries': { one: '{count} from the club has entered', other: '{count} from the club have entered' },
    'calendar.entriesNone': 'No one from the club has entered yet',

    'feeds.perm.createEvents': 'Create Events',
    'feeds.perm.manageEvents': 'Manage Events',
    'feeds.calendar.on':
      "{kind}: on. The club's races (and the levels of {/feeds events-filter}) appear in the server's Events, kept in step with Eventor.",
    'feeds.calendar.missing':
      'The bot still lacks {permissions} in this server: give them to its role (Server Settings → Roles), or nothing appears in Events.',
    'feeds.calendar.permissions': 'Permissions: {value}',
    'feeds.calendar.permissionsOk': 'Create Events and Manage Events granted',
    'feeds.calendar.noChannel': "no channel: the server's Events",
    'feeds.calendar.preview': 'How the next race would look in Events (nothing was created):',
    'feeds.calendar.when': 'When: {start} – {end}',
    'feeds.calendar.where': 'Where: {location}',
    'setup.calendar.hint':
      "Races in the server's Events ({/feeds on} calendar) need Create Events and Manage Events for the bot's role.",
  },
  sv: {
    'feeds.calendar.noRole':
      '{kind} skapar schemalagda evenemang, inga inlägg, så ingen roll nämns; medlemmar markerar dem som Intresserad för att bli påminda.',
    'feeds.filter.calendarDone':
      'Tävlingar i serverns evenemang: även tävlingar på dessa nivåer, utöver dem klubben arrangerar eller har anmälningar till: {levels}.',
    'feeds.filter.calendarCleared':
      'Tävlingar i serverns evenemang: bara dem klubben arrangerar eller har anmälningar till.',
    'feeds.opt.filterKind.description': 'Vilken sort det gäller (standard: nya tävlingar)',
    'setup.kind.calendar': 'Tävlingar i serverns evenemang',
    'scheduler.kind.calendar': 'tävlingar i serverns evenemang',
    'scheduler.summary.calendar': { one: '{count} tävling i evenemang', other: '{count} tävlingar i evenemang' },
    'scheduler.paused.calendar':
      'Tävlingarna i serverns evenemang är pausade: Discord nekade boten ett schemalagt evenemang. Ge botens roll Skapa evenemang och Hantera evenemang (Serverinställningar → Roller); de återupptas av sig själva.',
    'scheduler.calendarFull':
      'Servern har 100 kommande schemalagda evenemang, det mesta Discord tillåter: några tävlingar är utelämnade ur evenemang tills vidare. De närmaste tävlingarna behålls; de andra kommer när tidigare evenemang är över.',

    'calendar.cancelled': '❌ Inställd i Eventor',
    'calendar.organisers': 'Arrangör: {names}',
    'calendar.deadline': 'Anmälningsstopp: {when}',
    'calendar.deadlineLate': 'Efteranmälan till: {when}',
    'calendar.entries': { one: '{count} från klubben har anmält sig', other: '{count} från klubben har anmält sig' },
    'calendar.entriesNone': 'Ingen från klubben har anmält sig än',

    'feeds.perm.createEvents': 'Skapa evenemang',
    'feeds.perm.manageEvents': 'Hantera evenemang',
    'feeds.calendar.on':
      '{kind}: på. Klubbens tävlingar (och nivåerna i {/feeds events-filter}) visas i serverns evenemang, i takt med Eventor.',
    'feeds.calendar.missing':
      'Boten saknar fortfarande {permissions} i servern: ge dem till dess roll (Serverinställningar → Roller), annars visas inget i evenemang.',
    'feeds.calendar.permissions': 'Behörigheter: {value}',
    'feeds.calendar.permissionsOk': 'Skapa evenemang och Hantera evenemang finns',
    'feeds.calendar.noChannel': 'ingen kanal: serverns evenemang',
    'feeds.calendar.preview': 'Så skulle nästa tävling se ut i evenemang (inget skapades):',
    'feeds.calendar.when': 'När: {start} – {end}',
    'feeds.calendar.where': 'Var: {location}',
    'setup.calendar.hint':
      'Tävlingar i serverns evenemang ({/feeds on} calendar) kräver Skapa evenemang och Hantera evenemang för botens roll.',
  },
  nb: {
    'feeds.calendar.noRole':
      '{kind} lager planlagte arrangementer, ikke innlegg, så ingen rolle nevnes; medlemmer markerer dem som Interessert for å bli påminnet.',
    'feeds.filter.calendarDone':
      'Løp i serverens arrangementer: også løp på disse nivåene, i tillegg til dem klubben arrangerer eller har påmeldte i: {levels}.',
    'feeds.filter.calendarCleared': 'Løp i serverens arrangementer: bare dem klubben arrangerer eller har påmeldte i.',
    'feeds.opt.filterKind.description': 'Hvilken type det gjelder (standard: nye løp)',
    'setup.kind.calendar': 'Løp i serverens arrangementer',
    'scheduler.kind.calendar': 'løp i serverens arrangementer',
    'scheduler.summary.calendar': { one: '{count} løp i arrangementer', other: '{count} løp i arrangementer' },
    'scheduler.paused.calendar':
      'Løpene i serverens arrangementer er satt på pause: Discord nektet boten et planlagt arrangement. Gi botens rolle Opprett arrangementer og Administrer arrangementer (Serverinnstillinger → Roller); de fortsetter av seg selv.',
    'scheduler.calendarFull':
      'Serveren har 100 kommende planlagte arrangementer, det meste Discord tillater: noen løp er utelatt fra arrangementer inntil videre. De nærmeste løpene beholdes; de andre kommer når tidligere arrangementer er over.',

    'calendar.cancelled': '❌ Avlyst i Eventor',
    'calendar.organisers': 'Arrangør: {names}',
    'calendar.deadline': 'Påmeldingsfrist: {when}',
    'calendar.deadlineLate': 'Etteranmelding til: {when}',
    'calendar.entries': { one: '{count} fra klubben er påmeldt', other: '{count} fra klubben er påmeldt' },
    'calendar.entriesNone': 'Ingen fra klubben er påmeldt ennå',

    'feeds.perm.createEvents': 'Opprett arrangementer',
    'feeds.perm.manageEvents': 'Administrer arrangementer',
    'feeds.calendar.on':
      '{kind}: på. Klubbens løp (og nivåene i {/feeds events-filter}) vises i serverens arrangementer, i takt med Eventor.',
    'feeds.calendar.missing':
      'Boten mangler fortsatt {permissions} i serveren: gi dem til rollen dens (Serverinnstillinger → Roller), ellers vises ingenting i arrangementer.',
    'feeds.calendar.permissions': 'Tillatelser: {value}',
    'feeds.calendar.permissionsOk': 'Opprett arrangementer og Administrer arrangementer er gitt',
    'feeds.calendar.noChannel': 'ingen kanal: serverens arrangementer',
    'feeds.calendar.preview': 'Slik ville neste løp se ut i arrangementer (ingenting ble opprettet):',
    'feeds.calendar.when': 'Når: {start} – {end}',
    'feeds.calendar.where': 'Hvor: {location}',
    'setup.calendar.hint':
      'Løp i serverens arrangementer ({/feeds on} calendar) krever Opprett arrangementer og Administrer arrangementer for botens rolle.',
  },
});
