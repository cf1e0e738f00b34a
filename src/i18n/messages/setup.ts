import { defineMessages } from '../define.js';

/**
 * /setup (`/inställningar`, `/oppsett`). Command and option names stay lowercase without spaces
 * (Discord's rule), words joined by hyphens. Texts mention commands as `{/setup channel}`, which
 * `t()` turns into the names of the text's language (`mentions.ts`).
 */
export const setup = defineMessages({
  en: {
    'setup.name': 'setup',
    'setup.description': 'Admins: connect this server to Eventor and choose where automatic posts go',
    'setup.eventor.name': 'eventor',
    'setup.eventor.description': "Connect to Eventor with the club's API key (asked for in a private form)",
    'setup.eventor.instance.name': 'instance',
    'setup.eventor.instance.description': 'Which Eventor the club uses',
    'setup.eventor.baseUrl.name': 'base_url',
    'setup.eventor.baseUrl.description': 'Or the address of another Eventor, up to and including /api',
    'setup.language.name': 'language',
    'setup.language.description': 'Language of the automatic posts',
    'setup.language.option.name': 'language',
    'setup.language.option.description': 'Language of the automatic posts',
    'setup.timezone.name': 'timezone',
    'setup.timezone.description': 'Time zone of the times in automatic posts',
    'setup.timezone.option.name': 'zone',
    'setup.timezone.option.description': 'For example Europe/Stockholm',
    'setup.channel.name': 'channel',
    'setup.channel.description': 'Where one kind of automatic post goes',
    'setup.channel.kind.name': 'kind',
    'setup.channel.kind.description': 'Which automatic posts',
    'setup.channel.channel.name': 'channel',
    'setup.channel.channel.description': 'The text or announcement channel for them',
    'setup.channel.clear.name': 'clear',
    'setup.channel.clear.description': 'True: no channel for this kind any more (switches those posts off)',
    'setup.show.name': 'show',
    'setup.show.description': 'Show all settings of this server (the API key is never shown)',

    'setup.instance.se': 'Eventor Sweden',
    'setup.instance.no': 'Eventor Norway',
    'setup.instance.no-se-host': 'Eventor Norway (eventor-norway.orientering.se)',
    'setup.instance.au': 'Eventor Australia',
    'setup.instance.iof': 'IOF Eventor',

    'setup.languageName.en': 'English',
    'setup.languageName.sv': 'Swedish',
    'setup.languageName.nb': 'Norwegian (Bokmål)',

    'setup.kind.results': 'Results',
    'setup.kind.reminders': 'Entry deadline reminders',
    'setup.kind.startlists': 'Start lists',
    'setup.kind.events': 'New events',
    'setup.kind.activities': 'Club activities',
    'setup.kind.admin': 'Notices for admins',

    'setup.guildOnly': '{/setup} only works in a server.',
    'setup.eventor.chooseOne':
      'Choose exactly one: an Eventor from the list (`instance`) or the address of another Eventor (`base_url`).',
    'setup.url.invalid':
      '`{url}` is not a usable Eventor address: {reason} Give the address up to and including `/api`, for example `https://eventor.example.org/api`. Nothing was changed.',
    'setup.url.notUrl': 'it is not a web address.',
    'setup.url.notHttps':
      'it must start with https:// (plain http only to this machine, so that the key is never sent unencrypted).',
    'setup.url.credentials': 'it must not contain a user name or password.',
    'setup.url.query': 'it must not contain ? or #.',
    'setup.url.notAllowed':
      'the operator of this bot allows only the listed Eventor instances (other addresses go in EVENTOR_CUSTOM_URLS).',
    'setup.modal.title': 'Eventor API key',
    'setup.modal.label': 'API key',
    'setup.modal.hint': 'A club administrator finds it in Eventor. It is stored encrypted and never shown again.',
    'setup.key.badShape':
      'That does not look like an Eventor API key (16 to 128 characters: letters, digits and punctuation, no spaces). Nothing was changed.',
    'setup.key.refused':
      '{instance} refused this key. Nothing was changed: check the key and run `{/setup eventor}` again.',
    'setup.key.unavailable':
      '{instance} is not answering right now. Nothing was changed; please try again in a few minutes.',
    'setup.key.notEventor':
      '{url} did not answer like an Eventor API. Nothing was changed: check the address (up to and including `/api`).',
    'setup.key.expired': 'This form has expired. Nothing was changed; run `{/setup eventor}` again.',
    'setup.key.connected':
      'Connected to {club} on {instance}. The key is stored encrypted and will not be shown again.',
    'setup.moved.removed':
      'This is another Eventor or another club than before, so the member links ({links}), link requests ({requests}) and `{/notify}` subscriptions ({subscriptions}) of the old one were removed: they named persons there. Members are told by DM (where their DMs are open) and can link again with `{/link}`.',
    'setup.moved.dm':
      '**{server}** now uses another Eventor or club ({club}). Your links to Eventor persons there, your link requests and your `{/notify}` DMs were removed, because they named persons of the previous one. If you are a member of the new club, link again with `{/link}`.',
    'setup.language.done':
      "Automatic posts will be in {language}. Replies to commands follow each member's Discord language.",
    'setup.timezone.invalid':
      '`{zone}` is not a time zone I know. Pick one from the list, for example `Europe/Stockholm`. Nothing was changed.',
    'setup.timezone.done': 'Times in automatic posts will be in {zone} (the time there now: {time}).',
    'setup.channel.chooseOne': 'Give either a channel or `clear: True` (exactly one of them). Nothing was changed.',
    'setup.channel.wrongType': 'Automatic posts need a text or announcement channel. Nothing was changed.',
    'setup.channel.notFound': 'I cannot find that channel. Nothing was changed.',
    'setup.channel.missing':
      'I cannot post in {channel}: I am missing the permission {permissions} there. Give it to me in the channel settings, or pick another channel. Nothing was changed.',
    'setup.channel.done': '{kind}: posted in {channel} from now on.',
    'setup.channel.cleared': '{kind}: no channel any more, so these posts are switched off.',
    'setup.perm.view': 'View Channel',
    'setup.perm.send': 'Send Messages',
    'setup.perm.embed': 'Embed Links',
    'setup.perm.history': 'Read Message History',
    'setup.show.title': 'eventor-bot settings',
    'setup.show.eventor': 'Eventor',
    'setup.show.connected': '{club} on {instance}. An API key is stored (it is never shown).',
    'setup.show.operatorDefault': "No {/setup} yet: the operator's default connection is used ({club} on {instance}).",
    'setup.show.notConnected': 'Not connected. Use `{/setup eventor}`.',
    'setup.show.language': 'Language of automatic posts',
    'setup.show.timeZone': 'Time zone',
    'setup.show.default': '{value} (default)',
    'setup.show.channels': 'Channels for automatic posts',
    'setup.show.notSet': 'not set',
    'setup.show.canPost': 'can post',
    'setup.show.cannotPost': 'cannot post: missing {permissions}',
    'setup.show.channelGone': 'channel not found',
  },
  sv: {
    'setup.name': 'inställningar',
    'setup.description': 'Administratörer: koppla servern till Eventor och välj kanaler för automatiska inlägg',
    'setup.eventor.name': 'eventor',
    'setup.eventor.description': 'Koppla till Eventor med klubbens API-nyckel (som efterfrågas i ett privat formulär)',
    'setup.eventor.instance.name': 'instans',
    'setup.eventor.instance.description': 'Vilket Eventor klubben använder',
    'setup.eventor.baseUrl.name': 'adress',
    'setup.eventor.baseUrl.description': 'Eller adressen till ett annat Eventor, till och med /api',
    'setup.language.name': 'språk',
    'setup.language.description': 'Språket i de automatiska inläggen',
    'setup.language.option.name': 'språk',
    'setup.language.option.description': 'Språket i de automatiska inläggen',
    'setup.timezone.name': 'tidszon',
    'setup.timezone.description': 'Tidszonen för tiderna i de automatiska inläggen',
    'setup.timezone.option.name': 'zon',
    'setup.timezone.option.description': 'Till exempel Europe/Stockholm',
    'setup.channel.name': 'kanal',
    'setup.channel.description': 'Kanalen för en sorts automatiska inlägg',
    'setup.channel.kind.name': 'typ',
    'setup.channel.kind.description': 'Vilka automatiska inlägg',
    'setup.channel.channel.name': 'kanal',
    'setup.channel.channel.description': 'Kanalen för dem (text eller tillkännagivanden)',
    'setup.channel.clear.name': 'rensa',
    'setup.channel.clear.description': 'True: ingen kanal längre för den här sorten (stänger av de inläggen)',
    'setup.show.name': 'visa',
    'setup.show.description': 'Visa alla inställningar för servern (API-nyckeln visas aldrig)',

    'setup.instance.se': 'Eventor Sverige',
    'setup.instance.no': 'Eventor Norge',
    'setup.instance.no-se-host': 'Eventor Norge (eventor-norway.orientering.se)',
    'setup.instance.au': 'Eventor Australien',
    'setup.instance.iof': 'IOF Eventor',

    'setup.languageName.en': 'engelska',
    'setup.languageName.sv': 'svenska',
    'setup.languageName.nb': 'norska (bokmål)',

    'setup.kind.results': 'Resultat',
    'setup.kind.reminders': 'Påminnelser om anmälningsstopp',
    'setup.kind.startlists': 'Startlistor',
    'setup.kind.events': 'Nya tävlingar',
    'setup.kind.activities': 'Klubbaktiviteter',
    'setup.kind.admin': 'Meddelanden till administratörer',

    'setup.guildOnly': '{/setup} fungerar bara i en server.',
    'setup.eventor.chooseOne':
      'Välj precis ett av dem: ett Eventor i listan (`instans`) eller adressen till ett annat Eventor (`adress`).',
    'setup.url.invalid':
      '`{url}` går inte att använda som adress till Eventor: {reason} Ange adressen till och med `/api`, till exempel `https://eventor.example.org/api`. Inget har ändrats.',
    'setup.url.notUrl': 'det är ingen webbadress.',
    'setup.url.notHttps':
      'den måste börja med https:// (vanlig http bara till den här datorn, så att nyckeln aldrig skickas okrypterad).',
    'setup.url.credentials': 'den får inte innehålla användarnamn eller lösenord.',
    'setup.url.query': 'den får inte innehålla ? eller #.',
    'setup.url.notAllowed':
      'botens driftansvarige tillåter bara de listade Eventor-instanserna (andra adresser läggs i EVENTOR_CUSTOM_URLS).',
    'setup.modal.title': 'API-nyckel till Eventor',
    'setup.modal.label': 'API-nyckel',
    'setup.modal.hint': 'En klubbadministratör hittar den i Eventor. Den sparas krypterad och visas aldrig igen.',
    'setup.key.badShape':
      'Det där ser inte ut som en API-nyckel till Eventor (16 till 128 tecken: bokstäver, siffror och skiljetecken, inga mellanslag). Inget har ändrats.',
    'setup.key.refused':
      '{instance} godtog inte nyckeln. Inget har ändrats: kontrollera nyckeln och kör `{/setup eventor}` igen.',
    'setup.key.unavailable': '{instance} svarar inte just nu. Inget har ändrats; försök igen om några minuter.',
    'setup.key.notEventor':
      '{url} svarade inte som ett Eventor-API. Inget har ändrats: kontrollera adressen (till och med `/api`).',
    'setup.key.expired': 'Formuläret har gått ut. Inget har ändrats; kör `{/setup eventor}` igen.',
    'setup.key.connected': 'Kopplad till {club} i {instance}. Nyckeln sparas krypterad och visas aldrig igen.',
    'setup.moved.removed':
      'Det här är en annan Eventor eller en annan klubb än tidigare, så den gamlas kopplingar ({links}), begäranden om koppling ({requests}) och prenumerationer på `{/notify}` ({subscriptions}) togs bort: de avsåg personer där. Medlemmarna får veta det i DM (om de tar emot DM) och kan koppla igen med `{/link}`.',
    'setup.moved.dm':
      '**{server}** använder nu en annan Eventor eller klubb ({club}). Dina kopplingar till personer i Eventor där, dina begäranden om koppling och dina DM från `{/notify}` togs bort, eftersom de avsåg personer i den tidigare. Om du är medlem i den nya klubben kan du koppla igen med `{/link}`.',
    'setup.language.done':
      'Automatiska inlägg skrivs nu på {language}. Svar på kommandon följer varje medlems språk i Discord.',
    'setup.timezone.invalid':
      '`{zone}` är ingen tidszon som jag känner till. Välj en i listan, till exempel `Europe/Stockholm`. Inget har ändrats.',
    'setup.timezone.done': 'Tiderna i automatiska inlägg anges nu i {zone} (klockan är {time} där just nu).',
    'setup.channel.chooseOne': 'Ange antingen en kanal eller `rensa: True` (precis ett av dem). Inget har ändrats.',
    'setup.channel.wrongType':
      'Automatiska inlägg behöver en textkanal eller en kanal för tillkännagivanden. Inget har ändrats.',
    'setup.channel.notFound': 'Jag hittar inte den kanalen. Inget har ändrats.',
    'setup.channel.missing':
      'Jag kan inte posta i {channel}: jag saknar behörigheten {permissions} där. Ge mig den i kanalens inställningar eller välj en annan kanal. Inget har ändrats.',
    'setup.channel.done': '{kind}: postas i {channel} från och med nu.',
    'setup.channel.cleared': '{kind}: ingen kanal längre, så de inläggen är avstängda.',
    'setup.perm.view': 'Visa kanal',
    'setup.perm.send': 'Skicka meddelanden',
    'setup.perm.embed': 'Bädda in länkar',
    'setup.perm.history': 'Läs meddelandehistorik',
    'setup.show.title': 'eventor-bot: inställningar',
    'setup.show.eventor': 'Eventor',
    'setup.show.connected': '{club} i {instance}. En API-nyckel är sparad (den visas aldrig).',
    'setup.show.operatorDefault': 'Ingen {/setup} än: botens standardkoppling används ({club} i {instance}).',
    'setup.show.notConnected': 'Inte kopplad. Använd `{/setup eventor}`.',
    'setup.show.language': 'Språk i automatiska inlägg',
    'setup.show.timeZone': 'Tidszon',
    'setup.show.default': '{value} (standard)',
    'setup.show.channels': 'Kanaler för automatiska inlägg',
    'setup.show.notSet': 'inte vald',
    'setup.show.canPost': 'kan posta',
    'setup.show.cannotPost': 'kan inte posta: saknar {permissions}',
    'setup.show.channelGone': 'kanalen finns inte',
  },
  nb: {
    'setup.name': 'oppsett',
    'setup.description': 'Administratorer: koble serveren til Eventor og velg kanaler for automatiske innlegg',
    'setup.eventor.name': 'eventor',
    'setup.eventor.description': 'Koble til Eventor med klubbens API-nøkkel (som du blir bedt om i et privat skjema)',
    'setup.eventor.instance.name': 'instans',
    'setup.eventor.instance.description': 'Hvilket Eventor klubben bruker',
    'setup.eventor.baseUrl.name': 'adresse',
    'setup.eventor.baseUrl.description': 'Eller adressen til et annet Eventor, til og med /api',
    'setup.language.name': 'språk',
    'setup.language.description': 'Språket i de automatiske innleggene',
    'setup.language.option.name': 'språk',
    'setup.language.option.description': 'Språket i de automatiske innleggene',
    'setup.timezone.name': 'tidssone',
    'setup.timezone.description': 'Tidssonen for tidene i de automatiske innleggene',
    'setup.timezone.option.name': 'sone',
    'setup.timezone.option.description': 'For eksempel Europe/Oslo',
    'setup.channel.name': 'kanal',
    'setup.channel.description': 'Kanalen for én type automatiske innlegg',
    'setup.channel.kind.name': 'type',
    'setup.channel.kind.description': 'Hvilke automatiske innlegg',
    'setup.channel.channel.name': 'kanal',
    'setup.channel.channel.description': 'Kanalen for dem (tekst eller kunngjøringer)',
    'setup.channel.clear.name': 'fjern',
    'setup.channel.clear.description': 'True: ingen kanal lenger for denne typen (slår av de innleggene)',
    'setup.show.name': 'vis',
    'setup.show.description': 'Vis alle innstillingene for serveren (API-nøkkelen vises aldri)',

    'setup.instance.se': 'Eventor Sverige',
    'setup.instance.no': 'Eventor Norge',
    'setup.instance.no-se-host': 'Eventor Norge (eventor-norway.orientering.se)',
    'setup.instance.au': 'Eventor Australia',
    'setup.instance.iof': 'IOF Eventor',

    'setup.languageName.en': 'engelsk',
    'setup.languageName.sv': 'svensk',
    'setup.languageName.nb': 'norsk bokmål',

    'setup.kind.results': 'Resultater',
    'setup.kind.reminders': 'Påminnelser om påmeldingsfrist',
    'setup.kind.startlists': 'Startlister',
    'setup.kind.events': 'Nye løp',
    'setup.kind.activities': 'Klubbaktiviteter',
    'setup.kind.admin': 'Meldinger til administratorer',

    'setup.guildOnly': '{/setup} virker bare i en server.',
    'setup.eventor.chooseOne':
      'Velg nøyaktig ett av dem: et Eventor i listen (`instans`) eller adressen til et annet Eventor (`adresse`).',
    'setup.url.invalid':
      '`{url}` kan ikke brukes som adresse til Eventor: {reason} Oppgi adressen til og med `/api`, for eksempel `https://eventor.example.org/api`. Ingenting er endret.',
    'setup.url.notUrl': 'det er ikke en nettadresse.',
    'setup.url.notHttps':
      'den må begynne med https:// (vanlig http bare til denne maskinen, slik at nøkkelen aldri sendes ukryptert).',
    'setup.url.credentials': 'den kan ikke inneholde brukernavn eller passord.',
    'setup.url.query': 'den kan ikke inneholde ? eller #.',
    'setup.url.notAllowed':
      'den som drifter boten tillater bare de oppførte Eventor-instansene (andre adresser legges i EVENTOR_CUSTOM_URLS).',
    'setup.modal.title': 'API-nøkkel til Eventor',
    'setup.modal.label': 'API-nøkkel',
    'setup.modal.hint': 'En klubbadministrator finner den i Eventor. Den lagres kryptert og vises aldri igjen.',
    'setup.key.badShape':
      'Dette ser ikke ut som en API-nøkkel til Eventor (16 til 128 tegn: bokstaver, sifre og skilletegn, ingen mellomrom). Ingenting er endret.',
    'setup.key.refused':
      '{instance} godtok ikke nøkkelen. Ingenting er endret: sjekk nøkkelen og kjør `{/setup eventor}` på nytt.',
    'setup.key.unavailable': '{instance} svarer ikke akkurat nå. Ingenting er endret; prøv igjen om noen minutter.',
    'setup.key.notEventor':
      '{url} svarte ikke som et Eventor-API. Ingenting er endret: sjekk adressen (til og med `/api`).',
    'setup.key.expired': 'Skjemaet har gått ut på tid. Ingenting er endret; kjør `{/setup eventor}` på nytt.',
    'setup.key.connected': 'Koblet til {club} i {instance}. Nøkkelen lagres kryptert og vises aldri igjen.',
    'setup.moved.removed':
      'Dette er en annen Eventor eller en annen klubb enn før, så den gamles koblinger ({links}), forespørsler om kobling ({requests}) og abonnementer på `{/notify}` ({subscriptions}) ble fjernet: de gjaldt personer der. Medlemmene får vite det på DM (der de tar imot DM) og kan koble seg på nytt med `{/link}`.',
    'setup.moved.dm':
      '**{server}** bruker nå en annen Eventor eller klubb ({club}). Koblingene dine til personer i Eventor der, forespørslene dine om kobling og DM-ene dine fra `{/notify}` ble fjernet, fordi de gjaldt personer i den forrige. Er du medlem av den nye klubben, kan du koble deg på nytt med `{/link}`.',
    'setup.language.done':
      'Automatiske innlegg skrives nå på {language}. Svar på kommandoer følger språket hvert medlem har valgt i Discord.',
    'setup.timezone.invalid':
      '`{zone}` er ikke en tidssone jeg kjenner. Velg en fra listen, for eksempel `Europe/Oslo`. Ingenting er endret.',
    'setup.timezone.done': 'Tidene i automatiske innlegg oppgis nå i {zone} (klokken er {time} der akkurat nå).',
    'setup.channel.chooseOne': 'Oppgi enten en kanal eller `fjern: True` (nøyaktig ett av dem). Ingenting er endret.',
    'setup.channel.wrongType':
      'Automatiske innlegg trenger en tekstkanal eller en kunngjøringskanal. Ingenting er endret.',
    'setup.channel.notFound': 'Jeg finner ikke den kanalen. Ingenting er endret.',
    'setup.channel.missing':
      'Jeg kan ikke poste i {channel}: jeg mangler tillatelsen {permissions} der. Gi meg den i kanalinnstillingene, eller velg en annen kanal. Ingenting er endret.',
    'setup.channel.done': '{kind}: postes i {channel} fra nå av.',
    'setup.channel.cleared': '{kind}: ingen kanal lenger, så disse innleggene er slått av.',
    'setup.perm.view': 'Se kanal',
    'setup.perm.send': 'Send meldinger',
    'setup.perm.embed': 'Bygg inn lenker',
    'setup.perm.history': 'Les meldingshistorikk',
    'setup.show.title': 'eventor-bot: innstillinger',
    'setup.show.eventor': 'Eventor',
    'setup.show.connected': '{club} i {instance}. En API-nøkkel er lagret (den vises aldri).',
    'setup.show.operatorDefault': 'Ingen {/setup} ennå: botens standardkobling brukes ({club} i {instance}).',
    'setup.show.notConnected': 'Ikke koblet til. Bruk `{/setup eventor}`.',
    'setup.show.language': 'Språk i automatiske innlegg',
    'setup.show.timeZone': 'Tidssone',
    'setup.show.default': '{value} (standard)',
    'setup.show.channels': 'Kanaler for automatiske innlegg',
    'setup.show.notSet': 'ikke valgt',
    'setup.show.canPost': 'kan poste',
    'setup.show.cannotPost': 'kan ikke poste: mangler {permissions}',
    'setup.show.channelGone': 'fant ikke kanalen',
  },
});
