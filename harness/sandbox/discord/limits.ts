import { ComponentType, isSelectType, LOCALES, MessageFlag, OptionType } from './constants.js';
import type { FieldError } from './errors.js';
import type { ApiComponent, ApiEmbed, MessagePayload } from './types.js';

/**
 * Discord's hard limits, enforced server-side by the sandbox because discord.js does not check
 * most of them (docs/discord.md#hard-limits). Sources are paths in discord/discord-api-docs.
 */
export const LIMITS = {
  /** resources/message.mdx, Create Message: "up to 2000 characters". */
  content: 2000,
  /** resources/message.mdx: "Up to 10 rich embeds (up to 6000 characters)". */
  embeds: 10,
  /** resources/message.mdx, "Embed Limits" table. */
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  embedFieldName: 256,
  embedFieldValue: 1024,
  embedFooter: 2048,
  embedAuthor: 256,
  embedTotal: 6000,
  /** components/reference.mdx: legacy messages allow up to 5 action rows, 5 buttons each. */
  actionRows: 5,
  buttonsPerRow: 5,
  /** components/reference.mdx: Components V2 messages allow 40 components in total. */
  componentsV2Total: 40,
  customId: 100,
  buttonLabel: 80,
  selectOptions: 25,
  selectOptionText: 100,
  selectPlaceholder: 150,
  /** interactions/receiving-and-responding.mdx: "max of 25 choices"; application-commands.mdx choice structure. */
  autocompleteChoices: 25,
  choiceName: 100,
  choiceValue: 100,
  /** receiving-and-responding.mdx, Modal: title max 45, 1-5 components. */
  modalTitle: 45,
  modalComponents: 5,
  textInputLabel: 45,
  textInputValue: 4000,
  /** application-commands.mdx: names 1-32, descriptions 1-100, 25 options/choices, 100 chat-input commands. */
  commandName: 32,
  commandDescription: 100,
  commandOptions: 25,
  commandChoices: 25,
  commands: 100,
  /** resources/channel.mdx, Start Thread: name 1-100 characters. */
  threadName: 100,
  /** resources/message.mdx, Create Message: nonce up to 25 characters. */
  nonce: 25,
  /** resources/guild-scheduled-event.mdx: name 1-100, description up to 1000, location 1-100. */
  scheduledEventName: 100,
  scheduledEventDescription: 1000,
  scheduledEventLocation: 100,
  /** At most 100 SCHEDULED or ACTIVE events per guild (error 30038). */
  uncompletedScheduledEvents: 100,
} as const;

const COMMAND_NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

type Path = (string | number)[];

class Collector {
  readonly errors: FieldError[] = [];

  maxLength(path: Path, value: unknown, max: number): void {
    if (typeof value === 'string' && value.length > max) {
      this.errors.push({ path, code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${max} or fewer in length.` });
    }
  }

  between(path: Path, value: unknown, min: number, max: number): void {
    if (typeof value !== 'string' || value.length < min || value.length > max) {
      this.errors.push({ path, code: 'BASE_TYPE_BAD_LENGTH', message: `Must be between ${min} and ${max} in length.` });
    }
  }

  maxItems(path: Path, value: unknown, max: number): void {
    if (Array.isArray(value) && value.length > max) {
      this.errors.push({ path, code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${max} or fewer in length.` });
    }
  }

  required(path: Path, value: unknown): boolean {
    if (value === undefined || value === null || value === '') {
      this.errors.push({ path, code: 'BASE_TYPE_REQUIRED', message: 'This field is required' });
      return false;
    }
    return true;
  }

  add(path: Path, code: string, message: string): void {
    this.errors.push({ path, code, message });
  }
}

/** Characters Discord counts towards the 6000 total: title, description, field names/values, footer, author. */
export function embedLength(embed: ApiEmbed): number {
  let total = (embed.title?.length ?? 0) + (embed.description?.length ?? 0);
  for (const field of embed.fields ?? []) total += (field.name?.length ?? 0) + (field.value?.length ?? 0);
  total += (embed.footer?.text?.length ?? 0) + (embed.author?.name?.length ?? 0);
  return total;
}

function checkEmbeds(c: Collector, prefix: Path, embeds: unknown): void {
  if (embeds === undefined || embeds === null) return;
  if (!Array.isArray(embeds)) {
    c.add([...prefix, 'embeds'], 'BASE_TYPE_ARRAY', 'Must be an array.');
    return;
  }
  c.maxItems([...prefix, 'embeds'], embeds, LIMITS.embeds);
  let total = 0;
  embeds.forEach((raw: unknown, i) => {
    const embed = (raw ?? {}) as ApiEmbed;
    const p: Path = [...prefix, 'embeds', i];
    c.maxLength([...p, 'title'], embed.title, LIMITS.embedTitle);
    c.maxLength([...p, 'description'], embed.description, LIMITS.embedDescription);
    c.maxItems([...p, 'fields'], embed.fields, LIMITS.embedFields);
    (embed.fields ?? []).forEach((field, j) => {
      if (c.required([...p, 'fields', j, 'name'], field?.name)) {
        c.maxLength([...p, 'fields', j, 'name'], field.name, LIMITS.embedFieldName);
      }
      if (c.required([...p, 'fields', j, 'value'], field?.value)) {
        c.maxLength([...p, 'fields', j, 'value'], field.value, LIMITS.embedFieldValue);
      }
    });
    if (embed.footer) c.maxLength([...p, 'footer', 'text'], embed.footer.text, LIMITS.embedFooter);
    if (embed.author) c.maxLength([...p, 'author', 'name'], embed.author.name, LIMITS.embedAuthor);
    total += embedLength(embed);
  });
  if (total > LIMITS.embedTotal) {
    c.add([...prefix, 'embeds'], 'MAX_EMBED_SIZE_EXCEEDED', `Embed size exceeds maximum size of ${LIMITS.embedTotal}`);
  }
}

function checkInteractive(c: Collector, p: Path, component: ApiComponent, customIds: Set<string>): void {
  const isLinkOrPremium = component.type === ComponentType.Button && (component.style === 5 || component.style === 6);
  if (component.custom_id !== undefined || !isLinkOrPremium) {
    if (c.required([...p, 'custom_id'], component.custom_id)) {
      c.maxLength([...p, 'custom_id'], component.custom_id, LIMITS.customId);
      if (customIds.has(String(component.custom_id))) {
        c.add([...p, 'custom_id'], 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
      }
      customIds.add(String(component.custom_id));
    }
  }
  if (component.type === ComponentType.Button) {
    c.maxLength([...p, 'label'], component.label, LIMITS.buttonLabel);
    if (component.label === undefined && component.emoji === undefined && component.style !== 6) {
      c.add([...p], 'BUTTON_COMPONENT_INVALID', 'Button must have a label or an emoji');
    }
  }
  if (component.type === ComponentType.StringSelect) {
    if (c.required([...p, 'options'], component.options)) {
      c.maxItems([...p, 'options'], component.options, LIMITS.selectOptions);
      (component.options ?? []).forEach((option, k) => {
        c.between([...p, 'options', k, 'label'], option?.label, 1, LIMITS.selectOptionText);
        c.between([...p, 'options', k, 'value'], option?.value, 1, LIMITS.selectOptionText);
        c.maxLength([...p, 'options', k, 'description'], option?.description, LIMITS.selectOptionText);
      });
    }
  }
  if (component.placeholder !== undefined) {
    c.maxLength([...p, 'placeholder'], component.placeholder, LIMITS.selectPlaceholder);
  }
}

function checkLegacyComponents(c: Collector, prefix: Path, components: ApiComponent[]): void {
  const p0: Path = [...prefix, 'components'];
  c.maxItems(p0, components, LIMITS.actionRows);
  const customIds = new Set<string>();
  components.forEach((row, i) => {
    const p: Path = [...p0, i];
    if (row?.type !== ComponentType.ActionRow) {
      c.add([...p, 'type'], 'UNION_TYPE_CHOICES', 'Top-level components must be action rows');
      return;
    }
    const children = row.components ?? [];
    if (children.length === 0) {
      c.add([...p, 'components'], 'BASE_TYPE_MIN_LENGTH', 'Must be 1 or more in length.');
      return;
    }
    const selects = children.filter((child) => isSelectType(child?.type));
    if (selects.length > 0 && children.length > 1) {
      c.add([...p, 'components'], 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', 'A select menu must be alone in its action row');
    }
    c.maxItems([...p, 'components'], children, LIMITS.buttonsPerRow);
    children.forEach((child, j) => {
      checkInteractive(c, [...p, 'components', j], child ?? { type: 0 }, customIds);
    });
  });
}

/** Components V2: counts every nested component towards the 40 limit and checks custom ids. */
function checkV2Components(c: Collector, prefix: Path, components: ApiComponent[]): void {
  let count = 0;
  const customIds = new Set<string>();
  const walk = (list: ApiComponent[], path: Path): void => {
    list.forEach((component, i) => {
      count += 1;
      const p: Path = [...path, i];
      if (component.type === ComponentType.Button || isSelectType(component.type)) {
        checkInteractive(c, p, component, customIds);
      }
      if (component.components) walk(component.components, [...p, 'components']);
      if (component.accessory) walk([component.accessory], [...p, 'accessory']);
    });
  };
  walk(components, [...prefix, 'components']);
  if (count > LIMITS.componentsV2Total) {
    c.add([...prefix, 'components'], 'BASE_TYPE_MAX_LENGTH', `Must be ${LIMITS.componentsV2Total} or fewer in length.`);
  }
}

export interface MessageCheckOptions {
  /** Error paths are relative to this (e.g. `['data']` for interaction callbacks). */
  prefix?: Path;
  /** Files uploaded alongside (multipart), which make an otherwise empty message valid. */
  fileCount?: number;
}

/** Field errors of a message body; an empty list means Discord would accept it. */
export function checkMessagePayload(body: MessagePayload, options: MessageCheckOptions = {}): FieldError[] {
  const c = new Collector();
  const prefix = options.prefix ?? [];
  if (body.content !== undefined && body.content !== null && typeof body.content !== 'string') {
    c.add([...prefix, 'content'], 'BASE_TYPE_STRING', 'Must be a string.');
  }
  c.maxLength([...prefix, 'content'], body.content, LIMITS.content);
  checkEmbeds(c, prefix, body.embeds);
  if (((body.flags ?? 0) & MessageFlag.IsComponentsV2) !== 0) {
    // components/reference.mdx: with IS_COMPONENTS_V2 the content and embeds fields cannot be used.
    if (body.content)
      c.add(
        [...prefix, 'content'],
        'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
        'The content field cannot be used when using MessageFlags.IS_COMPONENTS_V2',
      );
    if (body.embeds?.length)
      c.add(
        [...prefix, 'embeds'],
        'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
        'The embeds field cannot be used when using MessageFlags.IS_COMPONENTS_V2',
      );
  }
  if (body.components !== undefined && body.components !== null) {
    if (!Array.isArray(body.components)) c.add([...prefix, 'components'], 'BASE_TYPE_ARRAY', 'Must be an array.');
    else if (((body.flags ?? 0) & MessageFlag.IsComponentsV2) !== 0) checkV2Components(c, prefix, body.components);
    else checkLegacyComponents(c, prefix, body.components);
  }
  return c.errors;
}

/** Whether a (merged) message has anything to show; Discord refuses empty messages with 50006. */
export function isEmptyMessage(message: {
  content?: string | null;
  embeds?: unknown[] | null;
  components?: unknown[] | null;
  attachmentCount?: number;
}): boolean {
  return (
    !message.content &&
    (message.embeds?.length ?? 0) === 0 &&
    (message.components?.length ?? 0) === 0 &&
    (message.attachmentCount ?? 0) === 0
  );
}

/** Autocomplete result (callback type 8). */
export function checkAutocompleteChoices(data: unknown): FieldError[] {
  const c = new Collector();
  const choices = (data as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) {
    c.add(['data', 'choices'], 'BASE_TYPE_REQUIRED', 'This field is required');
    return c.errors;
  }
  c.maxItems(['data', 'choices'], choices, LIMITS.autocompleteChoices);
  choices.forEach((choice: { name?: unknown; value?: unknown } | null, i) => {
    c.between(['data', 'choices', i, 'name'], choice?.name, 1, LIMITS.choiceName);
    if (typeof choice?.value === 'string')
      c.maxLength(['data', 'choices', i, 'value'], choice.value, LIMITS.choiceValue);
    else if (typeof choice?.value !== 'number') c.required(['data', 'choices', i, 'value'], undefined);
  });
  return c.errors;
}

/** Modal (callback type 9): title, custom id, 1-5 rows/labels of text inputs (or other label children). */
export function checkModal(data: unknown): FieldError[] {
  const c = new Collector();
  const modal = (data ?? {}) as { title?: unknown; custom_id?: unknown; components?: ApiComponent[] };
  c.between(['data', 'title'], modal.title, 1, LIMITS.modalTitle);
  c.between(['data', 'custom_id'], modal.custom_id, 1, LIMITS.customId);
  const components = modal.components;
  if (!Array.isArray(components) || components.length === 0) {
    c.add(['data', 'components'], 'BASE_TYPE_MIN_LENGTH', 'Must be 1 or more in length.');
    return c.errors;
  }
  c.maxItems(['data', 'components'], components, LIMITS.modalComponents);
  const ids = new Set<string>();
  components.forEach((component, i) => {
    const p: Path = ['data', 'components', i];
    const inputs =
      component.type === ComponentType.ActionRow
        ? (component.components ?? [])
        : component.type === ComponentType.Label && component.component
          ? [component.component]
          : [];
    if (component.type === ComponentType.Label) c.between([...p, 'label'], component.label, 1, LIMITS.textInputLabel);
    inputs.forEach((input, j) => {
      const ip: Path = component.type === ComponentType.ActionRow ? [...p, 'components', j] : [...p, 'component'];
      if (c.required([...ip, 'custom_id'], input.custom_id)) {
        c.maxLength([...ip, 'custom_id'], input.custom_id, LIMITS.customId);
        if (ids.has(String(input.custom_id))) {
          c.add([...ip, 'custom_id'], 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
        }
        ids.add(String(input.custom_id));
      }
      if (input.type === ComponentType.TextInput) {
        if (component.type === ComponentType.ActionRow)
          c.between([...ip, 'label'], input.label, 1, LIMITS.textInputLabel);
        c.maxLength([...ip, 'value'], input.value, LIMITS.textInputValue);
      }
    });
  });
  return c.errors;
}

function checkLocalizations(c: Collector, path: Path, value: unknown, min: number, max: number): void {
  if (value === undefined || value === null) return;
  for (const [locale, text] of Object.entries(value as Record<string, unknown>)) {
    if (!LOCALES.includes(locale)) c.add([...path, locale], 'LOCALE_INVALID', `"${locale}" is not a valid locale`);
    else c.between([...path, locale], text, min, max);
  }
}

function checkOptions(c: Collector, path: Path, options: unknown, depth: number): void {
  if (options === undefined || options === null) return;
  if (!Array.isArray(options)) {
    c.add(path, 'BASE_TYPE_ARRAY', 'Must be an array.');
    return;
  }
  c.maxItems(path, options, LIMITS.commandOptions);
  const names = new Set<string>();
  let sawOptional = false;
  options.forEach((option: Record<string, unknown>, i) => {
    const p: Path = [...path, i];
    const name = option?.['name'];
    if (typeof name !== 'string' || !COMMAND_NAME.test(name) || name !== name.toLowerCase()) {
      c.add([...p, 'name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
    } else if (names.has(name)) {
      c.add([...p, 'name'], 'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS', 'Option names must be unique');
    } else names.add(name);
    c.between([...p, 'description'], option?.['description'], 1, LIMITS.commandDescription);
    checkLocalizations(c, [...p, 'name_localizations'], option?.['name_localizations'], 1, LIMITS.commandName);
    checkLocalizations(
      c,
      [...p, 'description_localizations'],
      option?.['description_localizations'],
      1,
      LIMITS.commandDescription,
    );
    const type = option?.['type'];
    if (type === OptionType.Subcommand || type === OptionType.SubcommandGroup) {
      if (depth >= (type === OptionType.SubcommandGroup ? 1 : 2)) {
        c.add([...p, 'type'], 'APPLICATION_COMMAND_OPTION_TYPE_INVALID', 'Sub-command nesting is too deep');
      }
      checkOptions(c, [...p, 'options'], option['options'], depth + 1);
    } else {
      if (option?.['required'] === true && sawOptional) {
        c.add(
          [...p, 'required'],
          'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
          'Required options must be placed before non-required options',
        );
      }
      if (option?.['required'] !== true) sawOptional = true;
      const choices = option?.['choices'];
      c.maxItems([...p, 'choices'], choices, LIMITS.commandChoices);
      if (Array.isArray(choices) && choices.length > 0 && option['autocomplete'] === true) {
        c.add(
          [...p, 'autocomplete'],
          'APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_AND_CHOICES',
          'Autocomplete cannot be used together with choices',
        );
      }
      (Array.isArray(choices) ? choices : []).forEach((choice: { name?: unknown; value?: unknown }, k) => {
        c.between([...p, 'choices', k, 'name'], choice?.name, 1, LIMITS.choiceName);
        if (typeof choice?.value === 'string')
          c.maxLength([...p, 'choices', k, 'value'], choice.value, LIMITS.choiceValue);
      });
    }
  });
}

/** One command definition as sent to PUT/POST `/applications/.../commands`. */
export function checkCommand(command: unknown, prefix: Path = []): FieldError[] {
  const c = new Collector();
  const cmd = (command ?? {}) as Record<string, unknown>;
  const type = (cmd['type'] as number | undefined) ?? 1;
  const name = cmd['name'];
  if (typeof name !== 'string' || name.length === 0 || name.length > LIMITS.commandName) {
    c.between([...prefix, 'name'], name, 1, LIMITS.commandName);
  } else if (type === 1 && (!COMMAND_NAME.test(name) || name !== name.toLowerCase())) {
    c.add([...prefix, 'name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
  }
  if (type === 1) {
    c.between([...prefix, 'description'], cmd['description'], 1, LIMITS.commandDescription);
    checkOptions(c, [...prefix, 'options'], cmd['options'], 0);
  }
  checkLocalizations(c, [...prefix, 'name_localizations'], cmd['name_localizations'], 1, LIMITS.commandName);
  checkLocalizations(
    c,
    [...prefix, 'description_localizations'],
    cmd['description_localizations'],
    1,
    LIMITS.commandDescription,
  );
  return c.errors;
}

export function checkCommandList(commands: unknown): FieldError[] {
  if (!Array.isArray(commands)) return [{ path: [], code: 'BASE_TYPE_ARRAY', message: 'Must be an array.' }];
  const errors = commands.flatMap((command, i) => checkCommand(command, [i]));
  const chatInput = commands.filter((cmd: { type?: number }) => (cmd?.type ?? 1) === 1).length;
  if (chatInput > LIMITS.commands) {
    errors.push({ path: [], code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${LIMITS.commands} or fewer in length.` });
  }
  const seen = new Set<string>();
  commands.forEach((cmd: { name?: string; type?: number }, i) => {
    const key = `${cmd?.type ?? 1}:${cmd?.name}`;
    if (seen.has(key)) {
      errors.push({
        path: [i, 'name'],
        code: 'APPLICATION_COMMANDS_DUPLICATE_NAME',
        message: 'Application command names must be unique',
      });
    }
    seen.add(key);
  });
  return errors;
}

export function checkThreadName(name: unknown): FieldError[] {
  const c = new Collector();
  c.between(['name'], name, 1, LIMITS.threadName);
  return c.errors;
}

/** Start Thread: `auto_archive_duration` is one of these minutes (resources/channel.mdx). */
const AUTO_ARCHIVE_DURATIONS: readonly number[] = [60, 1440, 4320, 10080];

export function checkAutoArchive(value: unknown): FieldError[] {
  if (value === undefined || value === null || AUTO_ARCHIVE_DURATIONS.includes(value as number)) return [];
  return [
    {
      path: ['auto_archive_duration'],
      code: 'BASE_TYPE_CHOICES',
      message: `Value must be one of {${AUTO_ARCHIVE_DURATIONS.join(', ')}}.`,
    },
  ];
}

/** Create Message `nonce`: an integer or a string of at most 25 characters. */
export function checkNonce(nonce: unknown): FieldError[] {
  if (nonce === undefined || nonce === null) return [];
  if (typeof nonce === 'number' && Number.isInteger(nonce)) return [];
  if (typeof nonce !== 'string')
    return [{ path: ['nonce'], code: 'BASE_TYPE_BAD_TYPE', message: 'Must be an integer or a string.' }];
  if (nonce.length > LIMITS.nonce)
    return [
      { path: ['nonce'], code: 'BASE_TYPE_BAD_LENGTH', message: `Must be between 1 and ${LIMITS.nonce} in length.` },
    ];
  return [];
}
