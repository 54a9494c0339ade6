// Kept in step with package.json by a test (src/version.test.ts); a JSON import would pull package.json into dist/.
export const VERSION = '0.1.0';

/** Where the project lives: named in the crawler's User-Agent so a site owner can see who reads their site. */
export const REPOSITORY_URL = 'https://github.com/web-reader-mcp/web-reader-mcp';
