/** Where the site lives (SPEC.md: base path /anime_merch_web/) and where its API and assets are. */
export const BASE_PATH = '/anime_merch_web';
export const API_BASE_PATH = `${BASE_PATH}/api/v1`;
export const ASSETS_PATH = `${BASE_PATH}/assets/`;
/** The API's OpenAPI 3 description, generated from the schemas. */
export const OPENAPI_PATH = `${API_BASE_PATH}/openapi.json`;
