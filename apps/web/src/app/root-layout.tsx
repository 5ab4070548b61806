import { useEffect } from 'react';
import { NavigationType, Outlet, useLocation, useNavigationType } from 'react-router';
import { useDocumentTitle } from '../lib/routing/document-title';

/** Scrolls to the top on a new page (or to its #section); back and forward keep the browser's. */
function useScrollOnNavigate(): void {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType === NavigationType.Pop) return;
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [pathname, hash, navigationType]);
}

export function RootLayout() {
  useDocumentTitle();
  useScrollOnNavigate();
  return <Outlet />;
}
