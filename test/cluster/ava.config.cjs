// The scale-out tests (docs/operations.md): `npm run test:cluster` (CLUSTER_SCALE=short for the CI-sized run).
// Kept out of test/package.json's ava.files so `npm test` does not start them.
module.exports = {
  files: ['test/dist/cluster/**/*.test.js'],
  timeout: '15m',
  concurrency: 1,
  verbose: true,
};
