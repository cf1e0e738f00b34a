/**
 * English: the source language. Every key here must exist in every other language (the type
 * checker enforces it). Placeholders are `{name}`.
 */
export const en = {
  'error.eventorUnavailable': 'Eventor is not answering right now. Please try again in a few minutes.',
  'error.invalidApiKey': 'Eventor does not accept this server\'s API key. An admin needs to run `/setup` again.',
  'error.notConfigured': 'This server is not connected to Eventor yet. An admin can do it with `/setup`.',
  'error.eventNotFound': 'I could not find that event in Eventor.',
  'error.datesReversed': 'The start date ({from}) is after the end date ({to}).',
  'error.notLinked': 'Your Discord account is not linked to an Eventor person yet. Use `/link` first.',
  'error.unexpected': 'Something went wrong on my side. It has been logged; please try again.',
} as const;

export type MessageKey = keyof typeof en;
