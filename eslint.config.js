import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The modules one feature may import from another (src/features/README.md says what each offers). */
const FEATURE_SURFACES = [
  'accounts/auth-actions\\.ts',
  'accounts/use-account-status\\.ts',
  'agents/wingman-thread-help\\.tsx',
  'calls/call-buttons\\.tsx',
  'games/game-thread-parts\\.tsx',
  'likes/like-limit-prompt\\.tsx',
  'likes/likes-data\\.ts',
  'lovy/lovy-api\\.ts',
  'messages/messages-data\\.ts',
  'notifications/notifications-data\\.ts',
  'notifications/unread-store\\.ts',
  'profile/member-photo\\.tsx',
  'profile/member-profile-dialog\\.tsx',
  'profile/own-card-store\\.ts',
  'profile/profile-rules\\.ts',
  'reports/report-api\\.ts',
  'reports/report-dialog\\.tsx',
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', '.data', 'coverage', 'test-results', 'playwright-report', 'dev-dist'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Every journey runs under the CSP guard of tests/e2e/support/test.ts.
    files: ['tests/e2e/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test'],
              message: "Import test from './support/test.ts' (it fails a journey on any CSP refusal).",
            },
          ],
        },
      ],
    },
  },
  {
    // The layers of src (docs/architecture.md): domain, ui, data and session are lower layers and never reach
    // up into the shell (app) or the features; domain is pure and imports no other layer.
    files: ['src/domain/**', 'src/ui/**', 'src/data/**', 'src/session/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(app|features)/',
              message:
                'A lower layer (domain, ui, data, session) never imports the shell (app) or a feature.',
            },
          ],
        },
      ],
    },
  },
  {
    // Features never reach into each other's internals: another feature's module is imported only when it
    // is one of that feature's public surfaces (listed in src/features/README.md; add one there on purpose).
    files: ['src/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^\\.\\./(?!(${FEATURE_SURFACES.join('|')})$)[a-z-]+/`,
              message:
                'Import another feature only through its public surfaces (src/features/README.md), not its internals.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/domain/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(app|features|ui|data|session)/|^react|^@supabase|^@powersync',
              message: 'src/domain holds pure rules: no other layer, no framework, no client library.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.tsx', 'src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
);
