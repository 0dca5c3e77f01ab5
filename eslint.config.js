import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Import boundaries (STYLE.md §3.1-3.2): dependencies point one way. */
/** Lint zone of one feature folder depth: no other feature, no app, no server. */
function featureBoundary(files, up) {
  return {
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [`${up}/*/**`, `!${up}/../**`],
              message:
                'a feature does not import another feature: compose them in app/routes',
            },
            {
              group: ['**/app/**'],
              message: 'features do not import app',
            },
            {
              group: ['**/server/**', 'node:*', 'fastify*', 'pg'],
              message: 'the web app never imports the server',
            },
          ],
        },
      ],
    },
  };
}

/** Lint zone of server feature files: no other feature, no web; `extra` adds patterns. */
function serverFeatureBoundary(files, extra) {
  return {
    files,
    ignores: ['src/server/features/*/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*/**', '!../../**'],
              message:
                'a server feature does not import another feature: shared rules go to auth/ or db/, composition to routes.ts',
            },
            {
              group: ['**/web/**', 'react*'],
              message: 'the server never imports the web app',
            },
            {
              group: ['**/delivery/**', '!**/delivery/index.ts'],
              message:
                'features use delivery only through delivery/index.ts (the send path reaches it through SQL)',
            },
            ...extra,
          ],
        },
      ],
    },
  };
}

const boundaries = [
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '**/web/**'],
              message: 'shared imports nothing of server or web',
            },
            {
              group: ['node:*', 'fastify*', 'pg', '@electric-sql/*', 'react*'],
              message: 'shared has no DOM, Node or framework APIs',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/web/**', 'react*'],
              message: 'the server never imports the web app',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/web/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', 'node:*', 'fastify*', 'pg'],
              message: 'the web app never imports the server',
            },
          ],
        },
      ],
    },
  },
  // STYLE §3.1: features don't import each other; screens in app/routes compose them. A file
  // at a feature's root reaches another feature with '../x', one in a subfolder with '../../x'.
  featureBoundary(['src/web/features/*/*.{ts,tsx}'], '..'),
  featureBoundary(['src/web/features/*/*/**'], '../..'),
  // The server is cut the same way: a feature imports no other feature, and its routes reach
  // the database only through its service (routes → service → repo).
  serverFeatureBoundary(['src/server/features/*/*.ts'], []),
  serverFeatureBoundary(
    ['src/server/features/*/*routes.ts'],
    [
      {
        group: ['**/repo', '**/repo.ts'],
        message: 'routes call their service, never a repo',
      },
    ],
  ),
  {
    // One way to know the caller: the scope sets request.actor (src/server/auth/scopes.ts).
    files: ['src/server/features/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='principal']",
          message:
            'handlers know the caller as request.actor, set and checked by the scope',
        },
      ],
    },
  },
  {
    // Infrastructure every feature builds on; only app.ts and routes.ts compose features.
    files: [
      'src/server/audit/**',
      'src/server/auth/**',
      'src/server/db/**',
      'src/server/plugins/**',
      'src/server/*.ts',
    ],
    ignores: [
      'src/server/app.ts',
      'src/server/routes.ts',
      'src/server/deps.ts',
      'src/server/main.ts',
      'src/server/worker.ts',
      '**/*.test.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**'],
              message:
                'audit, auth, db and plugins depend on no feature: features depend on them',
            },
            {
              group: ['**/deps', '**/deps.ts', '**/delivery/**'],
              message:
                'infrastructure imports neither the composition root (deps.ts) nor delivery: take what it needs as a parameter',
            },
            {
              group: ['**/web/**', 'react*'],
              message: 'the server never imports the web app',
            },
          ],
        },
      ],
    },
  },
  {
    // auth and audit are siblings: the audit log records actors (a type of auth), auth reports
    // refused tries through an interface it declares.
    files: ['src/server/auth/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/features/**',
                '**/deps',
                '**/deps.ts',
                '**/delivery/**',
              ],
              message:
                'auth must depend on no feature, on no composition root and not on delivery',
            },
            {
              group: ['**/audit/**'],
              message: 'auth does not import audit (audit depends on auth)',
            },
            {
              group: ['**/web/**', 'react*'],
              message: 'the server never imports the web app',
            },
          ],
        },
      ],
    },
  },
  {
    // Delivery is reached by features through delivery/index.ts and by the send through SQL;
    // it depends on config, db and shared, never on what uses it.
    files: ['src/server/delivery/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/features/**',
                '**/auth/**',
                '**/audit/**',
                '**/deps',
                '**/deps.ts',
                '**/app',
                '**/app.ts',
                '**/routes.ts',
              ],
              message:
                'delivery depends on config, db and shared only: features, auth, audit and the app depend on it',
            },
            {
              group: ['**/web/**', 'react*'],
              message: 'the server never imports the web app',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/web/components/**', 'src/web/lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**', '**/app/**'],
              message: 'components and lib do not import features or app',
            },
            {
              group: ['**/server/**'],
              message: 'the web app never imports the server',
            },
          ],
        },
      ],
    },
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'data/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      '.tmp/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  { files: ['src/web/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
  ...boundaries,
);
