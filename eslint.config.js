// The linter of `npm test` (`npm run lint`): ESLint's and typescript-eslint's recommended rules.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'node_modules/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    // The few plain JavaScript files (the command's launcher, tool configs) run on Node.
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly', module: 'writable', require: 'readonly' } },
  },
  {
    rules: {
      // Stripping control and bidi characters from Eventor's text is what those expressions are for.
      'no-control-regex': 'off',
      // Unused names are tsc's job (noUnusedLocals, noUnusedParameters); an `_` prefix marks one kept on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // date-fns's index loads every one of its ~300 modules: a third of a second of each start.
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'date-fns', message: "Import the function's own module, e.g. 'date-fns/addDays'." }] },
      ],
    },
  },
  {
    // The store is async (docs/decisions/store-dialects.md): a promise left unawaited, or used as a
    // value (in a condition, as a callback's result), would skip a write or read a Promise as data.
    files: ['src/**/*.ts', 'commands/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
);
