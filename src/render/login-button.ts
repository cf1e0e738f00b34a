/**
 * The "Log in to Eventor" button any bot post can carry (deadline reminders, for one). Its click
 * goes to /login's `button` handler, which sends the CLICKER their own link: the custom id names
 * no person, so a post seen by the whole club can never hand out the poster's login.
 */
import { type APIButtonComponentWithCustomId, ButtonStyle, ComponentType } from 'discord.js';
import { type Language, t } from '../i18n/index.js';

/** Handled by /login's `button` component handler (the router dispatches on `<command>:<action>`). */
export const LOGIN_BUTTON_ID = 'login:button';

export function loginButton(language: Language): APIButtonComponentWithCustomId {
  return {
    type: ComponentType.Button,
    style: ButtonStyle.Primary,
    label: t(language, 'login.button.label'),
    custom_id: LOGIN_BUTTON_ID,
  };
}
