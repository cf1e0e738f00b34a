import { defineMessages } from '../define.js';

/**
 * /notify and the personal DMs it turns on ("your start time is out", "your result is in").
 * Replies name commands in the member's language through `{/link}` mentions (`/koppla`, `/koble`).
 */
export const notify = defineMessages({
  en: {
    'notify.name': 'notify',
    'notify.description': 'Personal DMs when your start time is out and when your result is in',
    'notify.on.name': 'on',
    'notify.on.description': 'Turn the DMs on (both kinds, or one)',
    'notify.off.name': 'off',
    'notify.off.description': 'Turn the DMs off (both kinds, or one)',
    'notify.show.name': 'show',
    'notify.show.description': 'Which DMs you get from this server',
    'notify.option.what.name': 'what',
    'notify.option.what.description': 'Which DMs (default: start times and results)',
    'notify.choice.all': 'Start times and results',
    'notify.choice.starts': 'Start times',
    'notify.choice.results': 'Results',

    'notify.notLinked':
      'These DMs are about your own starts and results, so your Discord account must be linked to your Eventor person first: run `{/link}`, then `{/notify on}`.',
    'notify.linkGone':
      'Your account is not linked to an Eventor person any more, so nothing is sent. Link again with `{/link}`.',
    'notify.turnedOn': 'Turned on: {what}.',
    'notify.turnedOff': 'Turned off: {what}.',
    'notify.what.all': 'start-time and result DMs',
    'notify.what.starts': 'start-time DMs',
    'notify.what.results': 'result DMs',
    'notify.status.title': '**Your DMs from this server**',
    'notify.status.starts': 'Start times: {state}',
    'notify.status.results': 'Results: {state}',
    'notify.state.on': 'on',
    'notify.state.off': 'off',
    'notify.status.persons': 'About: {persons}',
    'notify.status.none':
      'You get no DMs from me in this server. `{/notify on}` sends you a DM when your start time is out and when your result is in.',
    'notify.status.hint':
      'A start-time DM comes once per race when the start list is out, a result DM once your result is in; changes and corrections edit the same DM. Only what comes out from now on is sent.',
    'notify.status.paused.dms-closed':
      '⚠️ **Paused** since {when}: Discord refused my DMs to you. Allow direct messages from this server (server menu → Privacy settings → Direct messages), then run `{/notify on}` again.',
    'notify.status.paused.dm-unavailable':
      '⚠️ **Paused** since {when}: I could not open a DM with you. Run `{/notify on}` to try again.',
    'notify.welcome.dm':
      'You will get DMs here from **{server}**: {what}. Run `{/notify off}` in the server to stop them.',
    'notify.welcome.refused':
      '⚠️ Discord refused my DM to you, so the DMs are paused. Allow direct messages from this server (server menu → Privacy settings → Direct messages), then run `{/notify on}` again.',
    'notify.welcome.failed':
      'I could not DM you a confirmation just now; the DMs are on and I will try again with the first one.',

    'notify.dm.start.own': 'Your start time for **{event}** is out.',
    'notify.dm.start.other': 'The start time of **{person}** for **{event}** is out.',
    'notify.dm.result.own': 'Your result in **{event}** is in.',
    'notify.dm.result.other': 'The result of **{person}** in **{event}** is in.',
    'notify.dm.field.class': 'Class',
    'notify.dm.field.start': 'Start',
    'notify.dm.field.bib': 'Bib',
    'notify.dm.field.course': 'Course',
    'notify.dm.field.card': 'Chip',
    'notify.dm.field.team': 'Team',
    'notify.dm.field.place': 'Place',
    'notify.dm.field.time': 'Time',
    'notify.dm.field.behind': 'Behind',
    'notify.dm.field.status': 'Status',
    'notify.dm.field.overall': 'Overall',
    'notify.dm.startValue': '**{clock}** ({zone}) · {date} · {relative}',
    'notify.dm.teamStart': "{time} (the team's start)",
    'notify.dm.placeOf': '{place} of {starters}',
    'notify.dm.climb': '{climb} m climb',
    'notify.dm.noTimes': 'This class shows no places or times.',
    'notify.dm.footer': '{server} · {/notify}',
  },
  sv: {
    'notify.name': 'notiser',
    'notify.description': 'Personliga DM när din starttid är ute och när ditt resultat har kommit',
    'notify.on.name': 'på',
    'notify.on.description': 'Slå på DM (båda sorterna eller en av dem)',
    'notify.off.name': 'av',
    'notify.off.description': 'Slå av DM (båda sorterna eller en av dem)',
    'notify.show.name': 'visa',
    'notify.show.description': 'Vilka DM du får från den här servern',
    'notify.option.what.name': 'vad',
    'notify.option.what.description': 'Vilka DM (standard: starttider och resultat)',
    'notify.choice.all': 'Starttider och resultat',
    'notify.choice.starts': 'Starttider',
    'notify.choice.results': 'Resultat',

    'notify.notLinked':
      'De här DM:en handlar om dina egna starter och resultat, så ditt Discord-konto måste först kopplas till din person i Eventor: kör `{/link}` och sedan `{/notify on}`.',
    'notify.linkGone':
      'Ditt konto är inte längre kopplat till någon person i Eventor, så inget skickas. Koppla igen med `{/link}`.',
    'notify.turnedOn': 'Påslagna: {what}.',
    'notify.turnedOff': 'Avstängda: {what}.',
    'notify.what.all': 'DM om starttider och resultat',
    'notify.what.starts': 'DM om starttider',
    'notify.what.results': 'DM om resultat',
    'notify.status.title': '**Dina DM från den här servern**',
    'notify.status.starts': 'Starttider: {state}',
    'notify.status.results': 'Resultat: {state}',
    'notify.state.on': 'på',
    'notify.state.off': 'av',
    'notify.status.persons': 'Gäller: {persons}',
    'notify.status.none':
      'Du får inga DM från mig i den här servern. `{/notify on}` skickar ett DM när din starttid är ute och när ditt resultat har kommit.',
    'notify.status.hint':
      'Ett DM om starttiden kommer en gång per lopp när startlistan är ute, ett DM om resultatet när ditt resultat har kommit; ändringar och rättelser uppdaterar samma DM. Bara det som kommer ut från och med nu skickas.',
    'notify.status.paused.dms-closed':
      '⚠️ **Pausat** sedan {when}: Discord stoppade mina DM till dig. Tillåt direktmeddelanden från den här servern (servermenyn → Sekretessinställningar → Direktmeddelanden) och kör sedan `{/notify on}` igen.',
    'notify.status.paused.dm-unavailable':
      '⚠️ **Pausat** sedan {when}: jag kunde inte öppna ett DM med dig. Kör `{/notify on}` för att försöka igen.',
    'notify.welcome.dm': 'Här får du DM från **{server}**: {what}. Kör `{/notify off}` i servern för att stoppa dem.',
    'notify.welcome.refused':
      '⚠️ Discord stoppade mitt DM till dig, så DM:en är pausade. Tillåt direktmeddelanden från den här servern (servermenyn → Sekretessinställningar → Direktmeddelanden) och kör sedan `{/notify on}` igen.',
    'notify.welcome.failed':
      'Jag kunde inte skicka en bekräftelse som DM just nu; DM:en är påslagna och jag försöker igen med det första.',

    'notify.dm.start.own': 'Din starttid i **{event}** är ute.',
    'notify.dm.start.other': 'Starttiden för **{person}** i **{event}** är ute.',
    'notify.dm.result.own': 'Ditt resultat i **{event}** har kommit.',
    'notify.dm.result.other': 'Resultatet för **{person}** i **{event}** har kommit.',
    'notify.dm.field.class': 'Klass',
    'notify.dm.field.start': 'Start',
    'notify.dm.field.bib': 'Nummerlapp',
    'notify.dm.field.course': 'Bana',
    'notify.dm.field.card': 'Bricka',
    'notify.dm.field.team': 'Lag',
    'notify.dm.field.place': 'Placering',
    'notify.dm.field.time': 'Tid',
    'notify.dm.field.behind': 'Efter',
    'notify.dm.field.status': 'Status',
    'notify.dm.field.overall': 'Totalt',
    'notify.dm.startValue': '**{clock}** ({zone}) · {date} · {relative}',
    'notify.dm.teamStart': '{time} (lagets start)',
    'notify.dm.placeOf': '{place} av {starters}',
    'notify.dm.climb': '{climb} m stigning',
    'notify.dm.noTimes': 'Den här klassen visar inga placeringar eller tider.',
    'notify.dm.footer': '{server} · {/notify}',
  },
  nb: {
    'notify.name': 'varsler',
    'notify.description': 'Personlige DM når starttiden din er ute og når resultatet ditt er klart',
    'notify.on.name': 'på',
    'notify.on.description': 'Slå på DM (begge typene eller én av dem)',
    'notify.off.name': 'av',
    'notify.off.description': 'Slå av DM (begge typene eller én av dem)',
    'notify.show.name': 'vis',
    'notify.show.description': 'Hvilke DM du får fra denne serveren',
    'notify.option.what.name': 'hva',
    'notify.option.what.description': 'Hvilke DM (standard: starttider og resultater)',
    'notify.choice.all': 'Starttider og resultater',
    'notify.choice.starts': 'Starttider',
    'notify.choice.results': 'Resultater',

    'notify.notLinked':
      'Disse DM-ene handler om dine egne starter og resultater, så Discord-kontoen din må først kobles til personen din i Eventor: kjør `{/link}` og så `{/notify on}`.',
    'notify.linkGone':
      'Kontoen din er ikke lenger koblet til noen person i Eventor, så ingenting sendes. Koble på nytt med `{/link}`.',
    'notify.turnedOn': 'Slått på: {what}.',
    'notify.turnedOff': 'Slått av: {what}.',
    'notify.what.all': 'DM om starttider og resultater',
    'notify.what.starts': 'DM om starttider',
    'notify.what.results': 'DM om resultater',
    'notify.status.title': '**Dine DM fra denne serveren**',
    'notify.status.starts': 'Starttider: {state}',
    'notify.status.results': 'Resultater: {state}',
    'notify.state.on': 'på',
    'notify.state.off': 'av',
    'notify.status.persons': 'Gjelder: {persons}',
    'notify.status.none':
      'Du får ingen DM fra meg i denne serveren. `{/notify on}` sender deg en DM når starttiden din er ute og når resultatet ditt er klart.',
    'notify.status.hint':
      'En DM om starttiden kommer én gang per løp når startlisten er ute, en DM om resultatet når resultatet ditt er klart; endringer og rettelser oppdaterer den samme DM-en. Bare det som kommer ut fra nå av, sendes.',
    'notify.status.paused.dms-closed':
      '⚠️ **Pauset** siden {when}: Discord stoppet DM-ene mine til deg. Tillat direktemeldinger fra denne serveren (servermenyen → Personverninnstillinger → Direktemeldinger), og kjør så `{/notify on}` igjen.',
    'notify.status.paused.dm-unavailable':
      '⚠️ **Pauset** siden {when}: jeg fikk ikke åpnet en DM med deg. Kjør `{/notify on}` for å prøve igjen.',
    'notify.welcome.dm': 'Her får du DM fra **{server}**: {what}. Kjør `{/notify off}` i serveren for å stoppe dem.',
    'notify.welcome.refused':
      '⚠️ Discord stoppet DM-en min til deg, så DM-ene er pauset. Tillat direktemeldinger fra denne serveren (servermenyen → Personverninnstillinger → Direktemeldinger), og kjør så `{/notify on}` igjen.',
    'notify.welcome.failed':
      'Jeg fikk ikke sendt deg en bekreftelse som DM akkurat nå; DM-ene er slått på, og jeg prøver igjen med den første.',

    'notify.dm.start.own': 'Starttiden din i **{event}** er ute.',
    'notify.dm.start.other': 'Starttiden til **{person}** i **{event}** er ute.',
    'notify.dm.result.own': 'Resultatet ditt i **{event}** er klart.',
    'notify.dm.result.other': 'Resultatet til **{person}** i **{event}** er klart.',
    'notify.dm.field.class': 'Klasse',
    'notify.dm.field.start': 'Start',
    'notify.dm.field.bib': 'Startnummer',
    'notify.dm.field.course': 'Løype',
    'notify.dm.field.card': 'Brikke',
    'notify.dm.field.team': 'Lag',
    'notify.dm.field.place': 'Plassering',
    'notify.dm.field.time': 'Tid',
    'notify.dm.field.behind': 'Bak',
    'notify.dm.field.status': 'Status',
    'notify.dm.field.overall': 'Sammenlagt',
    'notify.dm.startValue': '**{clock}** ({zone}) · {date} · {relative}',
    'notify.dm.teamStart': '{time} (lagets start)',
    'notify.dm.placeOf': '{place} av {starters}',
    'notify.dm.climb': '{climb} m stigning',
    'notify.dm.noTimes': 'Denne klassen viser ingen plasseringer eller tider.',
    'notify.dm.footer': '{server} · {/notify}',
  },
});
