import { API_BASE_PATH } from '@guquan/contract/site-paths';

/**
 * A contract path (packages/contract) as a route of an API plugin, which its feature registers under
 * API_BASE_PATH: routes are registered from the contract's constants, never spelled out again.
 */
export function apiRoute(contractPath: string): string {
  if (!contractPath.startsWith(`${API_BASE_PATH}/`)) {
    throw new Error(`${contractPath} is not under ${API_BASE_PATH}`);
  }
  return contractPath.slice(API_BASE_PATH.length);
}
