import type { ShouldRevalidateFunctionArgs } from 'react-router';

/**
 * A share page reloads its item only when the item changes: not for a history entry of the same
 * share (the image viewer pushes one, Back pops it) nor for another query value such as `lang`.
 * A retry after a network failure fetches again by itself (SharePage).
 */
export function shareShouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs): boolean {
  if (formMethod) return defaultShouldRevalidate;
  const sameShare =
    currentUrl.pathname === nextUrl.pathname &&
    currentUrl.searchParams.get('id') === nextUrl.searchParams.get('id');
  return sameShare ? false : defaultShouldRevalidate;
}
