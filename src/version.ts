// Kept in step with package.json by a test (src/version.test.ts); a JSON import would pull package.json into dist/.
export const VERSION = '0.1.0';
