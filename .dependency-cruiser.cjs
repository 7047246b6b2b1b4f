// Import rules for core, checked by `npm run lint` (`depcruise core/src`). See docs/architecture.md, "Core modules".

/** A capability folder of core: core/src/<name>, as dependency-cruiser names folders. */
const CAPABILITY = '^core/src/[^/]+$';

const NO_CIRCLE_COMMENT =
  'Capability folders of core import each other one way: this import closes a circle between folders ' +
  '(the arrows after it lead back to where it starts). Move what both sides need below both, or let one side ask the other through a port.';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circle-between-capabilities',
      severity: 'error',
      comment: NO_CIRCLE_COMMENT,
      // Folder scope: an import from folder A to folder B is refused when B leads back to A on the
      // graph of folders, so each circle is named by its folders, and it is caught even where the
      // files form no ring (A/a.ts → B/b.ts → A/c.ts is no file cycle, but is a circle of A and B).
      scope: 'folder',
      from: { path: CAPABILITY },
      to: { path: CAPABILITY, circular: true },
    },
    {
      name: 'capability-through-its-index',
      severity: 'error',
      comment:
        "A capability reaches another only through that one's index.ts, and none reaches core/src's own files " +
        '(index.ts, storage-ports.ts), which import every capability: an import past an index hides a circle from the folder rule.',
      from: { path: '^core/src/([^/]+)/' },
      to: { path: '^core/src/', pathNot: '^core/src/($1/|[^/]+/index\\.ts$)' },
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment:
        'Core imports nothing from adapters, apps, a framework, a driver or node: only its own files and the pure data and computation ' +
        'libraries listed here (core/test/purity.test.ts checks the same, and the hidden inputs).',
      from: { path: '^core/src/' },
      to: { pathNot: '^(core/src/|node_modules/(currency-codes|decimal\\.js|ipaddr\\.js)/)' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
  },
};
