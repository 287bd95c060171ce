import { dirname, join, normalize, relative, sep } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const MODULES = join(import.meta.dirname, 'src', 'modules');

/** The module a path lies in (`src/modules/<name>/…`), or null outside every module. */
function moduleOf(path) {
  const inside = relative(MODULES, path);
  if (inside.startsWith('..') || !inside.includes(sep)) return null;
  return inside.split(sep)[0];
}

/**
 * A module is reached only through its face: outside `src/modules/<name>/`, code
 * imports `<name>/index.js` and nothing else of it (not its repository, schemas or
 * services). The wiring, `src/modules/index.ts`, may also import each module's
 * `*.routes.js`. Tests may reach internals (the rule runs on `src/` only).
 */
const moduleFaces = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      internal:
        "'{{file}}' is inside the {{module}} module: import its face, '{{module}}/index.js', " +
        'which exports what other modules may use (add the name there if it is missing)',
    },
  },
  create(context) {
    const file = context.filename;
    const from = moduleOf(file);
    const wiring = file === join(MODULES, 'index.ts');
    const check = (node) => {
      if (node?.type !== 'Literal' || typeof node.value !== 'string') return;
      if (!node.value.startsWith('.')) return;
      const target = normalize(join(dirname(file), node.value));
      const to = moduleOf(target);
      if (to === null || to === from) return;
      const within = relative(join(MODULES, to), target).split(sep).join('/');
      if (within === 'index.js') return;
      if (wiring && /^[^/]+\.routes\.js$/.test(within)) return;
      context.report({ node, messageId: 'internal', data: { module: to, file: within } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

const WEB = join(import.meta.dirname, 'web', 'src');

/** The console's floors, lowest first: a file imports from its own floor or one below. */
const WEB_FLOORS = ['offline', 'api', 'ui', 'forms', 'features', 'app'];

/** The floor of a path in `web/src/` (its first folder), or null outside them. */
function webFloorOf(path) {
  const inside = relative(WEB, path);
  if (inside.startsWith('..') || !inside.includes(sep)) return null;
  const floor = WEB_FLOORS.indexOf(inside.split(sep)[0]);
  return floor === -1 ? null : floor;
}

/**
 * The console's arrows point down: `offline/` (the write queue, which the API client
 * sends bench writes through, and the service worker's registration) is the floor, `api/`
 * (the client and the reads it keeps on the device) stands on it, `ui/` and `forms/` on that,
 * the screens of `features/` on those, and `app/` (the table of screens, the router, the
 * shell) on top. A feature may use another feature's pieces; nothing below a feature
 * imports one, and nothing below `app/` imports it.
 */
const webFloors = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      up: "'{{to}}/' stands above '{{from}}/' in the console: {{from}}/ may import only {{below}}",
    },
  },
  create(context) {
    const from = webFloorOf(context.filename);
    if (from === null) return {};
    const check = (node) => {
      if (node?.type !== 'Literal' || typeof node.value !== 'string') return;
      if (!node.value.startsWith('.')) return;
      const to = webFloorOf(normalize(join(dirname(context.filename), node.value)));
      if (to === null || to <= from) return;
      const below = WEB_FLOORS.slice(0, from + 1)
        .map((floor) => `${floor}/`)
        .join(', ');
      context.report({
        node,
        messageId: 'up',
        data: { from: WEB_FLOORS[from], to: WEB_FLOORS[to], below },
      });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'data/',
      'coverage/',
      '.bench/',
      'web/src/api/schema.d.ts',
      'web/src/api/scopes.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { vitro: { rules: { 'module-faces': moduleFaces } } },
    rules: { 'vitro/module-faces': 'error' },
  },
  {
    files: ['web/src/**/*.ts', 'web/src/**/*.tsx'],
    plugins: { web: { rules: { floors: webFloors } } },
    rules: { 'web/floors': 'error' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['test/**/*.ts', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
