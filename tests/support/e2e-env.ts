export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
/** "localhost" is the main domain in the tests; 127.0.0.1 stands for any other host. */
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
export const E2E_OTHER_HOST_URL = `http://127.0.0.1:${E2E_PORT}`;
