import { defineMessages } from '../define.js';

/** The scheduler's notices to a server's admins (admin channel, else the owner by DM). */
export const scheduler = defineMessages({
  en: {
    'scheduler.kind.results': 'club results',
    'scheduler.kind.reminders': 'entry-deadline reminders',
    'scheduler.kind.startlists': 'start lists',
    'scheduler.kind.events': 'new events',
    'scheduler.kind.activities': 'activities',
    'scheduler.kind.digest': 'weekly digest',
    'scheduler.paused.no-permission':
      'Automatic posts of {kind} are paused: the bot may not post in <#{channel}>. Give it View Channel, Send Messages, Embed Links and Read Message History there; posts resume by themselves.',
    'scheduler.paused.channel-missing':
      'Automatic posts of {kind} are paused: their channel no longer exists. Choose a new one with {/setup channel}; posts resume by themselves.',
    'scheduler.paused.invalid-key':
      "Automatic posts of {kind} are paused: Eventor refuses the club's API key. Enter a valid key with {/setup eventor}; posts resume by themselves.",
    'scheduler.resumed': 'Automatic posts of {kind} are running again.',
    'scheduler.noPictures':
      'The split graphs in the results threads of <#{channel}> go out as text: the bot may not attach files there. Give it Attach Files in <#{channel}>; the pictures come back with the next change of results.',
    'scheduler.summary.results': { one: '{count} new club result', other: '{count} new club results' },
    'scheduler.summary.reminders': {
      one: '{count} entry deadline coming up',
      other: '{count} entry deadlines coming up',
    },
    'scheduler.summary.startlists': { one: '{count} new start list', other: '{count} new start lists' },
    'scheduler.summary.events': { one: '{count} new or changed event', other: '{count} new or changed events' },
    'scheduler.summary.activities': { one: '{count} new club activity', other: '{count} new club activities' },
    'scheduler.summary.digest': { one: '{count} weekly digest', other: '{count} weekly digests' },
    'scheduler.summary.generic': { one: '{count} new post', other: '{count} new posts' },
    'scheduler.summary.away': 'While the bot was away (since {since}):',
    'scheduler.summary.more': '…and {count} more',
    'scheduler.summary.footer': 'One post instead of {count}, so the channel is not flooded.',
  },
  sv: {
    'scheduler.kind.results': 'klubbresultat',
    'scheduler.kind.reminders': 'påminnelser om anmälningsstopp',
    'scheduler.kind.startlists': 'startlistor',
    'scheduler.kind.events': 'nya tävlingar',
    'scheduler.kind.activities': 'aktiviteter',
    'scheduler.kind.digest': 'veckosammanfattning',
    'scheduler.paused.no-permission':
      'Automatiska inlägg med {kind} är pausade: boten får inte skriva i <#{channel}>. Ge den Visa kanal, Skicka meddelanden, Bädda in länkar och Läs meddelandehistorik där; inläggen återupptas av sig själva.',
    'scheduler.paused.channel-missing':
      'Automatiska inlägg med {kind} är pausade: kanalen finns inte längre. Välj en ny med {/setup channel}; inläggen återupptas av sig själva.',
    'scheduler.paused.invalid-key':
      'Automatiska inlägg med {kind} är pausade: Eventor godtar inte klubbens API-nyckel. Ange en giltig nyckel med {/setup eventor}; inläggen återupptas av sig själva.',
    'scheduler.resumed': 'Automatiska inlägg med {kind} är igång igen.',
    'scheduler.noPictures':
      'Sträcktidsgraferna i resultattrådarna i <#{channel}> skickas som text: boten får inte bifoga filer där. Ge den Bifoga filer i <#{channel}>; bilderna kommer tillbaka vid nästa ändring av resultaten.',
    'scheduler.summary.results': { one: '{count} nytt klubbresultat', other: '{count} nya klubbresultat' },
    'scheduler.summary.reminders': {
      one: '{count} anmälningsstopp närmar sig',
      other: '{count} anmälningsstopp närmar sig',
    },
    'scheduler.summary.startlists': { one: '{count} ny startlista', other: '{count} nya startlistor' },
    'scheduler.summary.events': {
      one: '{count} ny eller ändrad tävling',
      other: '{count} nya eller ändrade tävlingar',
    },
    'scheduler.summary.activities': { one: '{count} ny klubbaktivitet', other: '{count} nya klubbaktiviteter' },
    'scheduler.summary.digest': { one: '{count} veckosammanfattning', other: '{count} veckosammanfattningar' },
    'scheduler.summary.generic': { one: '{count} nytt inlägg', other: '{count} nya inlägg' },
    'scheduler.summary.away': 'Medan boten var borta (sedan {since}):',
    'scheduler.summary.more': '…och {count} till',
    'scheduler.summary.footer': 'Ett inlägg i stället för {count}, så att kanalen inte översvämmas.',
  },
  nb: {
    'scheduler.kind.results': 'klubbresultater',
    'scheduler.kind.reminders': 'påminnelser om påmeldingsfrist',
    'scheduler.kind.startlists': 'startlister',
    'scheduler.kind.events': 'nye løp',
    'scheduler.kind.activities': 'aktiviteter',
    'scheduler.kind.digest': 'ukesoppsummering',
    'scheduler.paused.no-permission':
      'Automatiske innlegg med {kind} er satt på pause: boten får ikke skrive i <#{channel}>. Gi den Se kanal, Send meldinger, Bygg inn lenker og Les meldingshistorikk der; innleggene fortsetter av seg selv.',
    'scheduler.paused.channel-missing':
      'Automatiske innlegg med {kind} er satt på pause: kanalen finnes ikke lenger. Velg en ny med {/setup channel}; innleggene fortsetter av seg selv.',
    'scheduler.paused.invalid-key':
      'Automatiske innlegg med {kind} er satt på pause: Eventor godtar ikke klubbens API-nøkkel. Oppgi en gyldig nøkkel med {/setup eventor}; innleggene fortsetter av seg selv.',
    'scheduler.resumed': 'Automatiske innlegg med {kind} er i gang igjen.',
    'scheduler.noPictures':
      'Strekktidsgrafene i resultattrådene i <#{channel}> sendes som tekst: boten får ikke legge ved filer der. Gi den Legg ved filer i <#{channel}>; bildene kommer tilbake ved neste endring i resultatene.',
    'scheduler.summary.results': { one: '{count} nytt klubbresultat', other: '{count} nye klubbresultater' },
    'scheduler.summary.reminders': {
      one: '{count} påmeldingsfrist nærmer seg',
      other: '{count} påmeldingsfrister nærmer seg',
    },
    'scheduler.summary.startlists': { one: '{count} ny startliste', other: '{count} nye startlister' },
    'scheduler.summary.events': { one: '{count} nytt eller endret løp', other: '{count} nye eller endrede løp' },
    'scheduler.summary.activities': { one: '{count} ny klubbaktivitet', other: '{count} nye klubbaktiviteter' },
    'scheduler.summary.digest': { one: '{count} ukesoppsummering', other: '{count} ukesoppsummeringer' },
    'scheduler.summary.generic': { one: '{count} nytt innlegg', other: '{count} nye innlegg' },
    'scheduler.summary.away': 'Mens boten var borte (siden {since}):',
    'scheduler.summary.more': '…og {count} til',
    'scheduler.summary.footer': 'Ett innlegg i stedet for {count}, så kanalen ikke oversvømmes.',
  },
});
