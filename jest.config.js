/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/tests/{unit,server,edge}/**/*.test.ts'],
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@x0k/json-schema-merge|cookie|@apidevtools/json-schema-ref-parser)/)'],
  maxWorkers: 2,
  testTimeout: 60000,
  // a file whose afterAll timed out (a slow machine) can leave a server listening; the run must still end
  // (CI has a time limit) — the failure itself is reported as a failed hook
  forceExit: true,
};
