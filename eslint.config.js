// ESLint's recommended rules plus no-unused-vars over the web code, the scripts and the tests (flat config).
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['build/', 'dist/', 'node_modules/', 'test-output/', 'bench-output/', 'web/assets/'] },
  js.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      // The web code runs in pages and workers; the scripts and tests in Node.
      globals: { ...globals.browser, ...globals.worker, ...globals.node },
    },
    rules: {
      // An argument or caught error may be named for what it is and left unread; `_` marks one on purpose.
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
];
