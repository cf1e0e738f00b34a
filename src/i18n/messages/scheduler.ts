import { defineMessages } from '../define.js';

/** The scheduler's notices to a server's admins (admin channel, else the owner by DM). */
export const scheduler = defineMessages({
  en: {
    'scheduler.kind.results': 'club results',
    'scheduler.kind.reminders': 'entry-deadline reminders',
    'scheduler.kind.startlists': 'start lists',
    'scheduler.kind.events': 'new events',
    'scheduler.kind.activities': 'activities',
    'scheduler.paused.no-permission': 'Automatic posts of {kind} are paused: the bot may not post in <#{channel}>. Give it View Channel, Send Messages and Embed Links there; posts resume by themselves.',
    'scheduler.paused.channel-missing': 'Automatic posts of {kind} are paused: their channel no longer exists. Choose a new one with /setup channel; posts resume by themselves.',
    'scheduler.paused.invalid-key': 'Automatic posts of {kind} are paused: Eventor refuses the club\'s API key. Enter a valid key with /setup eventor; posts resume by themselves.',
    'scheduler.resumed': 'Automatic posts of {kind} are running again.',
    'scheduler.catchup': '{count} more {kind} items appeared while the bot was away; see Eventor for them.',
  },
  sv: {
    'scheduler.kind.results': 'klubbresultat',
    'scheduler.kind.reminders': 'påminnelser om anmälningsstopp',
    'scheduler.kind.startlists': 'startlistor',
    'scheduler.kind.events': 'nya tävlingar',
    'scheduler.kind.activities': 'aktiviteter',
    'scheduler.paused.no-permission': 'Automatiska inlägg med {kind} är pausade: boten får inte skriva i <#{channel}>. Ge den Visa kanal, Skicka meddelanden och Bädda in länkar där; inläggen återupptas av sig själva.',
    'scheduler.paused.channel-missing': 'Automatiska inlägg med {kind} är pausade: kanalen finns inte längre. Välj en ny med /setup channel; inläggen återupptas av sig själva.',
    'scheduler.paused.invalid-key': 'Automatiska inlägg med {kind} är pausade: Eventor godtar inte klubbens API-nyckel. Ange en giltig nyckel med /setup eventor; inläggen återupptas av sig själva.',
    'scheduler.resumed': 'Automatiska inlägg med {kind} är igång igen.',
    'scheduler.catchup': '{count} till med {kind} kom medan boten var borta; se Eventor.',
  },
  nb: {
    'scheduler.kind.results': 'klubbresultater',
    'scheduler.kind.reminders': 'påminnelser om påmeldingsfrist',
    'scheduler.kind.startlists': 'startlister',
    'scheduler.kind.events': 'nye løp',
    'scheduler.kind.activities': 'aktiviteter',
    'scheduler.paused.no-permission': 'Automatiske innlegg med {kind} er satt på pause: boten får ikke skrive i <#{channel}>. Gi den Vis kanal, Send meldinger og Bygg inn lenker der; innleggene fortsetter av seg selv.',
    'scheduler.paused.channel-missing': 'Automatiske innlegg med {kind} er satt på pause: kanalen finnes ikke lenger. Velg en ny med /setup channel; innleggene fortsetter av seg selv.',
    'scheduler.paused.invalid-key': 'Automatiske innlegg med {kind} er satt på pause: Eventor godtar ikke klubbens API-nøkkel. Oppgi en gyldig nøkkel med /setup eventor; innleggene fortsetter av seg selv.',
    'scheduler.resumed': 'Automatiske innlegg med {kind} er i gang igjen.',
    'scheduler.catchup': '{count} flere {kind} kom mens boten var borte; se Eventor.',
  },
});
