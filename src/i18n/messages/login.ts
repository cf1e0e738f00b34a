import { defineMessages } from '../define.js';

/** /login, the "Log in to Eventor" button and /card. */
export const login = defineMessages({
  en: {
    'login.name': 'login',
    'login.description': 'Get a one-time link by DM that logs you in to Eventor',
    'login.option.person.name': 'person',
    'login.option.person.description': 'Which of your linked persons (default: your default person)',
    'login.button.label': 'Log in to Eventor',
    'login.sent': 'Your login link is in your direct messages. It works once and expires in five minutes.',
    'login.dm':
      'Here is your one-time link to log in to Eventor as {name}. It works once and expires {expires}. Do not share it: whoever opens it is logged in as you.',
    'login.error.dmsClosed':
      'I cannot send you a direct message, so I could not give you the link. Allow direct messages from this server: open the server menu → Privacy settings → turn on Direct messages, then try again.',
    'login.error.dmFailed': 'I could not send you the link by direct message. Please try again in a moment.',
    'login.error.notYours':
      'That person is not linked to your Discord account. Pick one of your own persons from the list.',
    'login.cooldown': 'You have asked for three login links in the last ten minutes. You can ask again {when}.',
    'login.error.notProven':
      'You are linked to {person} ({method}), so I cannot log you in to Eventor as them: anyone with the Manage Server permission can make such a link. Login links are only for persons you linked yourself with their Eventor user name and password: link with `{/link eventor}` to get login links.',
    'login.error.notInClub':
      "That person is not a member of this server's club in Eventor now, so I cannot log you in as them. Nothing was asked of Eventor.",

    'card.name': 'card',
    'card.description': 'Your timing chips and preselected classes in Eventor; give a number to change a chip',
    'card.option.number.name': 'number',
    'card.option.number.description': 'A new chip number to save (only digits)',
    'card.option.type.name': 'type',
    'card.option.type.description': 'The chip type (default: the type of your current chip, else SPORTident)',
    'card.show.title': 'Competitor settings of {name}',
    'card.show.cards': 'Timing chips',
    'card.show.classes': 'Preselected classes',
    'card.show.none': 'none',
    'card.show.hint': 'To change a chip: `{/card} number:<number> type:<type>`.',
    'card.error.badNumber':
      '"{value}" is not a valid {type} chip number: it must be a whole number from {min} to {max}{ranges}.',
    'card.ranges.si':
      ' (SI-Card 5: up to 499 999, SI-Card 6: 500 000–999 999, SI-Card 9: 1 000 000–1 999 999, SI-Card 8: 2 000 000–2 999 999, SI-Card 10, SIAC and SI-Card 11: 7 000 000–9 999 999)',
    'card.error.notYours':
      'This button is not yours, or that person is no longer linked to your account. Run `{/card}` again.',
    'card.confirm.prompt':
      'Change the {type} chip of {name} from **{old}** to **{new}**? Nothing is saved until you confirm.',
    'card.confirm.save': 'Save',
    'card.confirm.cancel': 'Cancel',
    'card.cancelled': 'Cancelled; nothing was changed.',
    'card.expired': 'This confirmation is more than ten minutes old; nothing was changed. Run `{/card}` again.',
    'card.saved': 'Saved. This is what Eventor has now:',
    'card.show.hintNotProven':
      'Changing a chip here needs a link you made yourself with the Eventor user name and password: `{/link eventor}`.',
    'card.error.notProven':
      'You are linked to {person} ({method}), so I cannot change their settings in Eventor: anyone with the Manage Server permission can make such a link. Link with `{/link eventor}` (their Eventor user name and password) to change timing chips here. Nothing was changed.',
    'card.error.notInClub':
      "That person is not a member of this server's club in Eventor now, so their settings cannot be changed here. Nothing was changed.",
  },
  sv: {
    'login.name': 'logga-in',
    'login.description': 'Få en engångslänk i DM som loggar in dig i Eventor',
    'login.option.person.name': 'person',
    'login.option.person.description': 'Vilken av dina kopplade personer (standard: din standardperson)',
    'login.button.label': 'Logga in i Eventor',
    'login.sent':
      'Din inloggningslänk finns i dina direktmeddelanden. Den fungerar en gång och slutar gälla om fem minuter.',
    'login.dm':
      'Här är din engångslänk för att logga in i Eventor som {name}. Den fungerar en gång och slutar gälla {expires}. Dela den inte: den som öppnar den blir inloggad som du.',
    'login.error.dmsClosed':
      'Jag kan inte skicka direktmeddelanden till dig, så jag kunde inte ge dig länken. Tillåt direktmeddelanden från den här servern: öppna servermenyn → Sekretessinställningar → slå på Direktmeddelanden och försök igen.',
    'login.error.dmFailed': 'Jag kunde inte skicka länken som direktmeddelande. Försök igen om en stund.',
    'login.error.notYours':
      'Den personen är inte kopplad till ditt Discord-konto. Välj en av dina egna personer i listan.',
    'login.cooldown': 'Du har bett om tre inloggningslänkar de senaste tio minuterna. Du kan be om en ny {when}.',
    'login.error.notProven':
      'Du är kopplad till {person} ({method}), så jag kan inte logga in dig i Eventor som den personen: alla med behörigheten Hantera server kan göra en sådan koppling. Inloggningslänkar finns bara för personer du själv har kopplat med deras användarnamn och lösenord i Eventor: koppla med `{/link eventor}` för att få inloggningslänkar.',
    'login.error.notInClub':
      'Den personen är inte medlem i den här serverns klubb i Eventor nu, så jag kan inte logga in dig som den personen. Ingenting skickades till Eventor.',

    'card.name': 'bricka',
    'card.description': 'Dina tidtagningsbrickor och standardklasser i Eventor; ange ett nummer för att byta bricka',
    'card.option.number.name': 'nummer',
    'card.option.number.description': 'Ett nytt bricknummer att spara (bara siffror)',
    'card.option.type.name': 'typ',
    'card.option.type.description': 'Bricktyp (standard: typen på din nuvarande bricka, annars SPORTident)',
    'card.show.title': 'Tävlingsinställningar för {name}',
    'card.show.cards': 'Tidtagningsbrickor',
    'card.show.classes': 'Standardklasser',
    'card.show.none': 'inga',
    'card.show.hint': 'Byt bricka med `{/card} nummer:<nummer> typ:<typ>`.',
    'card.error.badNumber':
      '"{value}" är inte ett giltigt bricknummer för {type}: det ska vara ett heltal från {min} till {max}{ranges}.',
    'card.ranges.si':
      ' (SI-Card 5: upp till 499 999, SI-Card 6: 500 000–999 999, SI-Card 9: 1 000 000–1 999 999, SI-Card 8: 2 000 000–2 999 999, SI-Card 10, SIAC och SI-Card 11: 7 000 000–9 999 999)',
    'card.error.notYours':
      'Den här knappen är inte din, eller så är personen inte längre kopplad till ditt konto. Kör `{/card}` igen.',
    'card.confirm.prompt':
      'Byta {type}-brickan för {name} från **{old}** till **{new}**? Inget sparas förrän du bekräftar.',
    'card.confirm.save': 'Spara',
    'card.confirm.cancel': 'Avbryt',
    'card.cancelled': 'Avbrutet; inget ändrades.',
    'card.expired': 'Den här bekräftelsen är äldre än tio minuter; inget ändrades. Kör `{/card}` igen.',
    'card.saved': 'Sparat. Så här ser det ut i Eventor nu:',
    'card.show.hintNotProven':
      'För att byta bricka här behöver du en koppling som du själv gjort med användarnamn och lösenord i Eventor: `{/link eventor}`.',
    'card.error.notProven':
      'Du är kopplad till {person} ({method}), så jag kan inte ändra personens inställningar i Eventor: alla med behörigheten Hantera server kan göra en sådan koppling. Koppla med `{/link eventor}` (personens användarnamn och lösenord i Eventor) för att byta bricka här. Inget ändrades.',
    'card.error.notInClub':
      'Den personen är inte medlem i den här serverns klubb i Eventor nu, så personens inställningar kan inte ändras här. Inget ändrades.',
  },
  nb: {
    'login.name': 'logg-inn',
    'login.description': 'Få en engangslenke på DM som logger deg inn i Eventor',
    'login.option.person.name': 'person',
    'login.option.person.description': 'Hvilken av dine koblede personer (standard: din standardperson)',
    'login.button.label': 'Logg inn i Eventor',
    'login.sent': 'Innloggingslenken ligger i direktemeldingene dine. Den virker én gang og utløper om fem minutter.',
    'login.dm':
      'Her er engangslenken din for å logge inn i Eventor som {name}. Den virker én gang og utløper {expires}. Ikke del den: den som åpner den, blir logget inn som deg.',
    'login.error.dmsClosed':
      'Jeg kan ikke sende deg direktemeldinger, så jeg fikk ikke gitt deg lenken. Tillat direktemeldinger fra denne serveren: åpne servermenyen → Personverninnstillinger → slå på Direktemeldinger, og prøv igjen.',
    'login.error.dmFailed': 'Jeg fikk ikke sendt deg lenken som direktemelding. Prøv igjen om litt.',
    'login.error.notYours':
      'Den personen er ikke koblet til Discord-kontoen din. Velg en av dine egne personer i listen.',
    'login.cooldown': 'Du har bedt om tre innloggingslenker de siste ti minuttene. Du kan be om en ny {when}.',
    'login.error.notProven':
      'Du er koblet til {person} ({method}), så jeg kan ikke logge deg inn i Eventor som den personen: alle med tillatelsen Administrer server kan lage en slik kobling. Innloggingslenker gis bare for personer du selv har koblet med brukernavnet og passordet deres i Eventor: koble med `{/link eventor}` for å få innloggingslenker.',
    'login.error.notInClub':
      'Den personen er ikke medlem av denne serverens klubb i Eventor nå, så jeg kan ikke logge deg inn som den personen. Ingenting ble sendt til Eventor.',

    'card.name': 'brikke',
    'card.description':
      'Tidtakingsbrikkene og de forhåndsvalgte klassene dine i Eventor; oppgi et nummer for å bytte brikke',
    'card.option.number.name': 'nummer',
    'card.option.number.description': 'Et nytt brikkenummer å lagre (bare sifre)',
    'card.option.type.name': 'type',
    'card.option.type.description': 'Brikketype (standard: typen til brikken du har, ellers SPORTident)',
    'card.show.title': 'Løperinnstillinger for {name}',
    'card.show.cards': 'Tidtakingsbrikker',
    'card.show.classes': 'Standardklasser',
    'card.show.none': 'ingen',
    'card.show.hint': 'Bytt brikke med `{/card} nummer:<nummer> type:<type>`.',
    'card.error.badNumber':
      '«{value}» er ikke et gyldig brikkenummer for {type}: det må være et heltall fra {min} til {max}{ranges}.',
    'card.ranges.si':
      ' (SI-Card 5: opptil 499 999, SI-Card 6: 500 000–999 999, SI-Card 9: 1 000 000–1 999 999, SI-Card 8: 2 000 000–2 999 999, SI-Card 10, SIAC og SI-Card 11: 7 000 000–9 999 999)',
    'card.error.notYours':
      'Denne knappen er ikke din, eller personen er ikke lenger koblet til kontoen din. Kjør `{/card}` på nytt.',
    'card.confirm.prompt':
      'Bytte {type}-brikken til {name} fra **{old}** til **{new}**? Ingenting lagres før du bekrefter.',
    'card.confirm.save': 'Lagre',
    'card.confirm.cancel': 'Avbryt',
    'card.cancelled': 'Avbrutt; ingenting ble endret.',
    'card.expired': 'Denne bekreftelsen er eldre enn ti minutter; ingenting ble endret. Kjør `{/card}` på nytt.',
    'card.saved': 'Lagret. Slik ser det ut i Eventor nå:',
    'card.show.hintNotProven':
      'For å bytte brikke her trenger du en kobling du selv har laget med brukernavn og passord i Eventor: `{/link eventor}`.',
    'card.error.notProven':
      'Du er koblet til {person} ({method}), så jeg kan ikke endre innstillingene til personen i Eventor: alle med tillatelsen Administrer server kan lage en slik kobling. Koble med `{/link eventor}` (personens brukernavn og passord i Eventor) for å bytte brikke her. Ingenting ble endret.',
    'card.error.notInClub':
      'Den personen er ikke medlem av denne serverens klubb i Eventor nå, så innstillingene kan ikke endres her. Ingenting ble endret.',
  },
});
