// Lints the engine's and the web UI's JavaScript in the test command: an unknown name, a shadowed one, an
// unused one fails the build (tsc checks the types).
import globals from 'globals';

export default [
  { ignores: ['.venv/**', 'node_modules/**', '**/*.bundle.js'] },
  {
    files: [
      'src/pagelens/engine/js/**/*.js',
      'src/pagelens/extraction/prune.js',
      'src/pagelens/server/ui/*.js',
      'scripts/*.mjs',
    ],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.browser },
    },
    rules: {
      'no-undef': 'error',
      'no-shadow': ['error', { builtinGlobals: false }],
      'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none' }],
      'no-redeclare': 'error',
    },
  },
  {
    files: ['scripts/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
];
